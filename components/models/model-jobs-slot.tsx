"use client";

import { TrainModelDialog } from "@/components/jobs/launch-job-dialog";
import { JobsTable } from "@/components/jobs/jobs-table";
import type { TrainedModel } from "@/components/models/queries";
import { Panel } from "@/components/ui/panel";

// The Jobs pages' part of a model's page: <ModelJobs/> is its jobs section and
// <TrainModelAction/> the header's "Train" button (components/jobs/* hold both).

/** "Jobs of this model": the Jobs list filtered to it. */
export function ModelJobs({ model }: { model: TrainedModel }) {
  return (
    <Panel title="Jobs of this model" description="RL and SFT jobs that trained it, with their progress and events.">
      <div data-slot="model-jobs" data-model-id={model.id}>
        <JobsTable
          filter={{ model_id: model.id }}
          showModel={false}
          empty={
            <>
              <h3 className="text-sm font-semibold text-zinc-900">No jobs yet</h3>
              <p className="mt-1">Press Train to fine-tune it on a JSONL file or recorded calls, or to run RL on its logged trajectory groups.</p>
            </>
          }
        />
      </div>
    </Panel>
  );
}

/** The header's "Train" action: the launch dialog for this model. */
export function TrainModelAction({ model }: { model: TrainedModel }) {
  return <TrainModelDialog model={model} />;
}
