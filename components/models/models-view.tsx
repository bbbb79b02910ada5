"use client";

import { BaseModelsPanel } from "@/components/models/base-models-panel";
import { CreateModelDialog } from "@/components/models/create-model-dialog";
import { TrainedModelsPanel } from "@/components/models/trained-models-panel";
import { PageHeader } from "@/components/ui/page-header";

/** /models: the workspace's trained models, then the base models they can start from. */
export function ModelsView({ origin }: { origin: string }) {
  return (
    <>
      <PageHeader
        title="Models"
        description="Base models this instance serves and the models your team trains, with every checkpoint and its metrics."
        actions={<CreateModelDialog />}
      />
      <div className="space-y-5">
        <TrainedModelsPanel origin={origin} />
        <BaseModelsPanel />
      </div>
    </>
  );
}
