"use client";

import Link from "next/link";
import { CheckpointsPanel } from "@/components/models/checkpoints-panel";
import { MetricsPanel } from "@/components/models/metrics-panel";
import { ModelHeader } from "@/components/models/model-header";
import { ModelJobs } from "@/components/models/model-jobs-slot";
import { useTrainedModel } from "@/components/models/queries";
import { TrajectoryGroupsPanel } from "@/components/models/trajectory-groups-panel";
import { Alert } from "@/components/ui/alert";
import { QueryError } from "@/components/ui/query-error";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiError } from "@/lib/client/api-fetch";

/** /models/{id}: header, metric charts, checkpoints, the model's jobs, logged trajectory groups. */
export function ModelDetail({ modelId, origin }: { modelId: string; origin: string }) {
  const model = useTrainedModel(modelId);

  if (model.isPending) {
    return (
      <div role="status" aria-label="Loading model" className="space-y-4">
        <Skeleton className="h-7 w-80" />
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  }
  if (model.isError) {
    const missing = model.error instanceof ApiError && (model.error.status === 404 || model.error.status === 422);
    return missing ? (
      <Alert title="Model not found" action={<Link href="/models" className="text-sm font-medium text-red-800 underline">All models</Link>}>
        It was deleted, or it belongs to a team you are not in.
      </Alert>
    ) : (
      <QueryError what="the model" error={model.error} retry={() => void model.refetch()} />
    );
  }
  return (
    <>
      <ModelHeader model={model.data} />
      <div className="space-y-5">
        <MetricsPanel modelId={modelId} />
        <CheckpointsPanel model={model.data} />
        <ModelJobs model={model.data} />
        <TrajectoryGroupsPanel modelId={modelId} origin={origin} />
      </div>
    </>
  );
}
