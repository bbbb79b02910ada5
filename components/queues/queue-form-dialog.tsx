"use client";

import { useState, type FormEvent, type ReactNode } from "react";
import { useProjects } from "@/components/identity/queries";
import { Alert } from "@/components/ui/alert";
import { Dialog, DialogActions, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { Field, SelectField, TextAreaField } from "@/components/ui/field";
import { ApiError, errorMessage } from "@/lib/client/api-fetch";
import { AnnotatorPicker } from "./annotator-picker";
import { useCreateQueue, useUpdateQueue, type QueueDto } from "./queries";
import { SpecPicker, type ChosenSpec } from "./spec-picker";

// Creating a queue, or configuring one: its project (fixed once created), name, description, the
// instructions annotators read, the specs asked for, display fields, annotations per item and
// who is assigned. One form for both, so the two cannot drift apart.

interface Settings {
  project: string;
  name: string;
  description: string;
  instructions: string;
  specs: ChosenSpec[];
  displayFields: string;
  annotationsPerItem: string;
  annotators: string[];
}

const settingsOf = (queue: QueueDto): Settings => ({
  project: queue.project,
  name: queue.name,
  description: queue.description,
  instructions: queue.instructions,
  specs: queue.specs.map((spec) => ({ name: spec.name, required: spec.required })),
  displayFields: queue.display_fields.join("\n"),
  annotationsPerItem: String(queue.annotations_per_item),
  annotators: queue.annotators.map((a) => a.username),
});

const blank = (project: string): Settings => ({ project, name: "", description: "", instructions: "", specs: [], displayFields: "", annotationsPerItem: "1", annotators: [] });

/** The API's body fields from the form's (display fields: one path per line or comma). */
const bodyOf = (s: Settings) => ({
  name: s.name.trim(),
  description: s.description,
  instructions: s.instructions,
  specs: s.specs,
  display_fields: s.displayFields.split(/[\n,]/).map((f) => f.trim()).filter(Boolean),
  annotations_per_item: Number(s.annotationsPerItem),
  annotators: s.annotators,
});

interface QueueFormDialogProps {
  team: string;
  /** The workspace's project, offered first for a new queue. */
  defaultProject: string;
  /** Configure this queue; without it, create one. */
  queue?: QueueDto;
  trigger: ReactNode;
  onSaved?: (queue: QueueDto) => void;
}

export function QueueFormDialog({ team, defaultProject, queue, trigger, onSaved }: QueueFormDialogProps) {
  const [open, setOpen] = useState(false);
  const [settings, setSettings] = useState<Settings>(() => (queue ? settingsOf(queue) : blank(defaultProject)));
  const create = useCreateQueue();
  const update = useUpdateQueue(queue?.id ?? "");
  const save = queue ? update : create;
  const projects = useProjects(team);
  const fields = save.error instanceof ApiError ? save.error.fields : {};
  const set = (patch: Partial<Settings>) => setSettings((s) => ({ ...s, ...patch }));
  const projectNames = [...new Set([defaultProject, ...(projects.data ?? []).map((p) => `${team}/${p.name}`)])];

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const done = (saved: QueueDto) => {
      setOpen(false);
      onSaved?.(saved);
    };
    if (queue) update.mutate(bodyOf(settings), { onSuccess: done });
    else create.mutate({ project: settings.project, ...bodyOf(settings) }, { onSuccess: done });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setSettings(queue ? settingsOf(queue) : blank(defaultProject));
        else save.reset();
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent size="lg" title={queue ? `Configure ${queue.name}` : "New annotation queue"} description="Calls are added from the Calls page, by selection or by filter.">
        <form onSubmit={onSubmit} noValidate>
          <div className="-mx-5 max-h-[62vh] space-y-4 overflow-y-auto px-5 pb-1">
            <SelectField label="Project" value={settings.project} disabled={Boolean(queue)} onChange={(e) => set({ project: e.target.value, specs: [] })} hint="The queue holds this project's calls and uses its annotation specs." error={fields.project}>
              {projectNames.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </SelectField>
            <Field label="Name" required autoFocus value={settings.name} onChange={(e) => set({ name: e.target.value })} placeholder="e.g. Support answers, week 12" error={fields.name} />
            <Field label="Description" value={settings.description} onChange={(e) => set({ description: e.target.value })} placeholder="What the queue is for (engineers read it)" error={fields.description} />
            <TextAreaField
              label="Instructions"
              rows={4}
              value={settings.instructions}
              onChange={(e) => set({ instructions: e.target.value })}
              hint="Shown to annotators beside the form."
              error={fields.instructions}
            />
            <SpecPicker project={settings.project} value={settings.specs} onChange={(specs) => set({ specs })} />
            <div className="grid grid-cols-2 gap-3">
              <TextAreaField
                label="Display fields"
                rows={2}
                value={settings.displayFields}
                onChange={(e) => set({ displayFields: e.target.value })}
                placeholder="request.metadata.task"
                hint="Paths into the call shown first, one per line."
                error={Object.entries(fields).find(([key]) => key.startsWith("display_fields"))?.[1]}
              />
              <Field
                label="Annotations per item"
                type="number"
                min={1}
                max={100}
                value={settings.annotationsPerItem}
                onChange={(e) => set({ annotationsPerItem: e.target.value })}
                hint="By different people; more than one gives agreement."
                error={fields.annotations_per_item}
              />
            </div>
            <AnnotatorPicker team={team} value={settings.annotators} onChange={(annotators) => set({ annotators })} error={Object.entries(fields).find(([key]) => key.startsWith("annotators"))?.[1]} />
            {save.isError && <Alert title={queue ? "Could not save the queue" : "Could not create the queue"}>{errorMessage(save.error)}</Alert>}
          </div>
          <DialogActions label={queue ? "Save" : "Create queue"} pendingLabel="Saving…" pending={save.isPending} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
