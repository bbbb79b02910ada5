import { ListChecks } from "lucide-react";
import type { TrainedModel } from "@/components/models/queries";
import { Panel } from "@/components/ui/panel";

// ─── Slot for the Jobs pages ────────────────────────────────────────────────────────────────
// The model page renders <ModelJobs model={…}/> as its jobs section and <TrainModelAction
// model={…}/> in its header. Both are placeholders until the Jobs pages and the launch dialogs
// land: replace their bodies (keep the names and the `model` prop) with the real "Jobs of this
// model" list and the "Train" button.

/** "Jobs of this model": placeholder for the jobs list. */
export function ModelJobs({ model }: { model: TrainedModel }) {
  return (
    <Panel title="Jobs of this model" description="RL and SFT jobs that trained it, with their progress and events.">
      <div data-slot="model-jobs" data-model-id={model.id} className="flex items-center gap-3 px-4 py-6 text-sm text-zinc-500">
        <ListChecks className="size-5 text-zinc-400" aria-hidden />
        Jobs of this model will be listed here. Meanwhile, POST /v1/preview/training-jobs starts one from code.
      </div>
    </Panel>
  );
}

/** The header's "Train" action: placeholder for the launch dialogs (renders nothing yet). */
export function TrainModelAction({ model }: { model: TrainedModel }) {
  void model;
  return null;
}
