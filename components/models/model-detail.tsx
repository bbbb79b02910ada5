"use client";

import { CheckpointFeedbackPanel } from "@/components/models/checkpoint-feedback-panel";
import { CheckpointsPanel } from "@/components/models/checkpoints-panel";
import { LearningCurvePanel } from "@/components/models/learning-curve-panel";
import { ModelHeader } from "@/components/models/model-header";
import { ModelJobs } from "@/components/models/model-jobs-slot";
import { useTrainedModel } from "@/components/models/queries";
import { TrajectoryGroupsPanel } from "@/components/models/trajectory-groups-panel";
import { Alert } from "@/components/ui/alert";
import { DetailLoadError, DetailSkeleton } from "@/components/ui/detail-page";
import type { TrainedModel } from "@/components/models/queries";

/** /models/{id}: header, metrics across its jobs, checkpoints, human feedback per checkpoint, the model's jobs, logged trajectory groups. */
export function ModelDetail({ modelId, origin, justCreated = false }: { modelId: string; origin: string; justCreated?: boolean }) {
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
        {justCreated && <CreatedNotice model={model.data} />}
        <LearningCurvePanel modelId={modelId} />
        <CheckpointsPanel model={model.data} />
        <CheckpointFeedbackPanel modelId={modelId} />
        <ModelJobs model={model.data} />
        <TrajectoryGroupsPanel modelId={modelId} origin={origin} />
      </div>
    </>
  );
}

/** What the New model dialog just made, and where to find it again (its project may not be the one
 *  the Models list shows). */
function CreatedNotice({ model }: { model: TrainedModel }) {
  return (
    <Alert tone="info" title={`Model created in project ${model.entity}/${model.project}`}>
      It serves its base model, {model.base_model}, until its first checkpoint: use Train to start a job. The Models list shows it under
      project {model.project}.
    </Alert>
  );
}

