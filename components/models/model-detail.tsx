"use client";

import { CheckpointFeedbackPanel } from "@/components/models/checkpoint-feedback-panel";
import { CheckpointsPanel } from "@/components/models/checkpoints-panel";
import { LearningCurvePanel } from "@/components/models/learning-curve-panel";
import { ModelHeader } from "@/components/models/model-header";
import { ModelJobs } from "@/components/models/model-jobs-slot";
import { useTrainedModel } from "@/components/models/queries";
import { TrajectoryGroupsPanel } from "@/components/models/trajectory-groups-panel";
import { DetailLoadError, DetailSkeleton } from "@/components/ui/detail-page";

/** /models/{id}: header, metrics across its jobs, checkpoints, human feedback per checkpoint, the model's jobs, logged trajectory groups. */
export function ModelDetail({ modelId, origin }: { modelId: string; origin: string }) {
  const model = useTrainedModel(modelId);

  if (model.isPending) return <DetailSkeleton label="Loading model" />;
  if (model.isError) {
    return (
      <DetailLoadError
        what="the model"
        error={model.error}
        retry={() => void model.refetch()}
        notFound={{ title: "Model not found", reason: "It was deleted, or it belongs to a team you are not in.", href: "/models", link: "All models" }}
      />
    );
  }
  return (
    <>
      <ModelHeader model={model.data} />
      <div className="space-y-5">
        <LearningCurvePanel modelId={modelId} />
        <CheckpointsPanel model={model.data} />
        <CheckpointFeedbackPanel modelId={modelId} />
        <ModelJobs model={model.data} />
        <TrajectoryGroupsPanel modelId={modelId} origin={origin} />
      </div>
    </>
  );
}
