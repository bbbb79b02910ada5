"use client";

import { GraduationCap, Plus } from "lucide-react";
import { useEffect, useState } from "react";
import { useWorkspace } from "@/components/identity/queries";
import { RlGroupsForm } from "@/components/jobs/rl-groups-form";
import { SftCallsForm } from "@/components/jobs/sft-calls-form";
import { SftUploadForm } from "@/components/jobs/sft-upload-form";
import { ModelTrainingSettings } from "@/components/jobs/training-cost";
import { useTrainedModels, type TrainedModel } from "@/components/models/queries";
import { RlRunForm } from "@/components/rl-runs/rl-run-form";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { SelectField } from "@/components/ui/field";

// Launching a training job from the console: SFT from an uploaded JSONL file or from recorded
// calls, RL from the model's logged trajectory groups, or an RL run (the server's own loop over
// prompts and a checker). On success the job's (or run's) page opens.

const SOURCES = [
  { id: "file", label: "SFT: JSONL file" },
  { id: "calls", label: "SFT: recorded calls" },
  { id: "groups", label: "RL: trajectory groups" },
  { id: "rl-run", label: "RL run: prompts + checker" },
] as const;
type Source = (typeof SOURCES)[number]["id"];

function SourceTabs({ value, onChange }: { value: Source; onChange: (source: Source) => void }) {
  return (
    <div role="tablist" aria-label="Training data" className="mb-4 flex gap-1 border-b border-zinc-200">
      {SOURCES.map((source) => (
        <button
          key={source.id}
          type="button"
          role="tab"
          aria-selected={value === source.id}
          onClick={() => onChange(source.id)}
          className={`-mb-px border-b-2 px-2.5 pt-0.5 pb-2 text-[13px] font-medium ${value === source.id ? "border-brand-600 text-zinc-900" : "border-transparent text-zinc-500 hover:text-zinc-800"}`}
        >
          {source.label}
        </button>
      ))}
    </div>
  );
}

function LaunchForms({ model }: { model: TrainedModel }) {
  const [source, setSource] = useState<Source>("file");
  return (
    <div role="tabpanel">
      <ModelTrainingSettings model={model} />
      <SourceTabs value={source} onChange={setSource} />
      {source === "file" && <SftUploadForm model={model} />}
      {source === "calls" && <SftCallsForm model={model} />}
      {source === "groups" && <RlGroupsForm model={model} />}
      {source === "rl-run" && <RlRunForm model={model} />}
    </div>
  );
}

/** "Train" on a model's page: the dialog for that model. */
export function TrainModelDialog({ model }: { model: TrainedModel }) {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button size="sm">
          <GraduationCap /> Train
        </Button>
      </DialogTrigger>
      <DialogContent size="lg" title={`Train ${model.name}`} description={`A job trains from the newest checkpoint (step ${model.latest_checkpoint_step ?? 0}) and writes step ${model.current_step + 1} when it succeeds.`}>
        <LaunchForms model={model} />
      </DialogContent>
    </Dialog>
  );
}

/** "New job" on the Jobs page: asks which model of the workspace's team to train first. */
export function NewJobDialog() {
  const { data: workspace } = useWorkspace();
  const models = useTrainedModels(workspace ? { entity: workspace.team } : undefined);
  // A picker needs every model, not the first page of the list.
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = models;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const [modelId, setModelId] = useState("");
  const model = models.data?.find((m) => m.id === modelId);
  return (
    <Dialog onOpenChange={(open) => !open && setModelId("")}>
      <DialogTrigger asChild>
        <Button>
          <Plus /> New job
        </Button>
      </DialogTrigger>
      <DialogContent size="lg" title="New training job" description="Pick the model to train, then its training data.">
        <SelectField
          label="Model"
          value={modelId}
          onChange={(e) => setModelId(e.target.value)}
          className="mb-4"
          hint={models.data?.length === 0 ? "No trained models in this team yet: create one on the Models page first." : undefined}
        >
          <option value="">{models.isPending ? "Loading…" : "Choose a model"}</option>
          {(models.data ?? []).map((m) => (
            <option key={m.id} value={m.id}>
              {m.entity}/{m.project}/{m.name}
            </option>
          ))}
        </SelectField>
        {model && <LaunchForms key={model.id} model={model} />}
      </DialogContent>
    </Dialog>
  );
}
