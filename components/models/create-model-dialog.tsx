"use client";

import { Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent } from "react";
import { useProjects, useWorkspace } from "@/components/identity/queries";
import { useModels } from "@/components/inference/queries";
import { loraFromForm, TrainingModeFields } from "@/components/models/lora-fields";
import { useCreateModel } from "@/components/models/queries";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { Field, SelectField } from "@/components/ui/field";
import { ApiError, errorMessage } from "@/lib/client/api-fetch";

/** "New model": a trainable base model, a project of the workspace's team, a name and how it trains
 *  (POST /v1/preview/models); the API's errors land on their fields; success opens the new model. */
export function CreateModelDialog() {
  const [open, setOpen] = useState(false);
  const { data: workspace } = useWorkspace();
  const projects = useProjects(workspace?.team);
  const models = useModels();
  const create = useCreateModel();
  const router = useRouter();
  const [missing, setMissing] = useState<Record<string, string>>({});
  const projectList = useId();

  const trainable = models.data?.filter((m) => m.parent === null && m.trainable) ?? [];
  const defaultBase = trainable.find((m) => m.default)?.id ?? trainable[0]?.id ?? "";
  const [pickedBase, setPickedBase] = useState<string>();
  const base = trainable.find((m) => m.id === (pickedBase ?? defaultBase));
  const loraOnly = base?.train_modes?.includes("full") === false;
  const error = create.error;
  const fields: Record<string, string> = error instanceof ApiError ? { ...error.fields } : {};
  // 409: that name is taken in the project; 400: the base model is unknown.
  if (error instanceof ApiError && error.status === 409) fields.name = error.message;
  if (error instanceof ApiError && error.status === 400) fields.base_model = error.message;
  const fieldError = (name: string) => missing[name] ?? fields[name];
  const unplaced = create.isError && !Object.keys(fields).length;

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      create.reset();
      setMissing({});
      setPickedBase(undefined);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!workspace) return;
    const form = new FormData(event.currentTarget);
    const value = (key: string) => String(form.get(key) ?? "").trim();
    const input = { base_model: value("base_model"), project: value("project"), name: value("name"), lora: loraFromForm(form) };
    const empty: Record<string, string> = {};
    if (!input.base_model) empty.base_model = "Pick a base model.";
    if (!input.project) empty.project = "Name the project, e.g. default.";
    if (!input.name) empty.name = "Name the model, e.g. my-agent.";
    setMissing(empty);
    if (Object.keys(empty).length) return;
    // The new model may be in another project than the list shows: go to it, and its page says where it is.
    create.mutate({ entity: workspace.team, ...input }, {
      onSuccess: (model) => {
        onOpenChange(false);
        router.push(`/models/${model.id}?created`);
      },
    });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <Plus /> New model
        </Button>
      </DialogTrigger>
      <DialogContent title="New model" description={`A model in team ${workspace?.team ?? ""} that you train from a base model. Step 0 serves the base model unchanged.`}>
        <form onSubmit={onSubmit} className="space-y-4" noValidate>
          <SelectField
            label="Base model"
            name="base_model"
            key={defaultBase}
            defaultValue={defaultBase}
            onChange={(event) => setPickedBase(event.target.value)}
            error={fieldError("base_model")}
            hint="Only trainable base models are listed."
          >
            {models.isPending && <option value="">Loading…</option>}
            {!models.isPending && trainable.length === 0 && <option value="">No trainable base model is configured</option>}
            {trainable.map((m) => (
              <option key={m.id} value={m.id}>
                {m.id}
                {m.default ? " (default)" : ""}
              </option>
            ))}
          </SelectField>
          <Field
            label="Project"
            name="project"
            list={projectList}
            defaultValue={workspace?.project ?? "default"}
            maxLength={128}
            error={fieldError("project")}
            hint="A new name creates the project."
          />
          <datalist id={projectList}>
            {(projects.data ?? []).map((p) => (
              <option key={p.id} value={p.name} />
            ))}
          </datalist>
          <Field label="Name" name="name" required autoFocus maxLength={128} placeholder="my-agent" error={fieldError("name")} hint="Letters, digits, . _ - (no spaces or slashes)." />
          <TrainingModeFields key={base?.id} baseModel={base?.id ?? ""} fieldError={fieldError} loraOnly={loraOnly} />
          {models.isError && <Alert>Could not load base models: {errorMessage(models.error)}</Alert>}
          {unplaced && <Alert>{errorMessage(create.error)}</Alert>}
          <DialogActions label="Create model" pendingLabel="Creating…" pending={create.isPending} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
