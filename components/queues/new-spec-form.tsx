"use client";

import { useState, type KeyboardEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CheckboxLabel, Field, SelectField } from "@/components/ui/field";
import { errorMessage, type ApiError } from "@/lib/client/api-fetch";
import { SPEC_TYPES, type SpecType } from "@/lib/feedback/annotation-spec-schemas";
import { useCreateSpec, type CreateSpecInput } from "./queries";

// A new annotation spec of the queue's project, made without leaving the queue form: name, type
// and the type's settings (numeric bounds, categorical options). It lives inside the queue's
// <form>, so it is a group with its own button, and Enter in it creates the spec, not the queue.

export const SPEC_TYPE_LABELS: Record<SpecType, string> = {
  numeric: "Number (score)",
  boolean: "Yes / no",
  categorical: "One of several options",
  text: "Free text",
  corrected_reply: "Corrected reply",
  preferred_choice: "Preferred choice (calls with n ≥ 2)",
};

const optionalNumber = (text: string) => (text.trim() === "" ? undefined : Number(text));

export function NewSpecForm({ project, onCreated }: { project: string; onCreated: (name: string) => void }) {
  const create = useCreateSpec(project);
  const [name, setName] = useState("");
  const [type, setType] = useState<SpecType>("numeric");
  const [description, setDescription] = useState("");
  const [min, setMin] = useState("1");
  const [max, setMax] = useState("5");
  const [integer, setInteger] = useState(true);
  const [options, setOptions] = useState("");
  const fields = (create.error as ApiError | null)?.fields ?? {};

  function body(): CreateSpecInput {
    const common = { name: name.trim(), description };
    if (type === "numeric") return { ...common, type, min: optionalNumber(min), max: optionalNumber(max), integer };
    if (type === "categorical") return { ...common, type, options: options.split(",").map((o) => o.trim()).filter(Boolean) };
    return { ...common, type };
  }

  function submit() {
    create.mutate(body(), {
      onSuccess: (spec) => {
        onCreated(spec.name);
        setName("");
        setDescription("");
        create.reset();
      },
    });
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === "Enter" && event.target instanceof HTMLInputElement && event.target.type !== "checkbox") {
      event.preventDefault();
      submit();
    }
  }

  return (
    <div role="group" aria-label="New annotation spec" className="space-y-3 rounded-md border border-dashed border-zinc-300 p-3" onKeyDown={onKeyDown}>
      <div className="grid grid-cols-2 gap-3">
        <Field label="Spec name" value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. helpfulness" error={fields.name} />
        <SelectField label="Spec type" value={type} onChange={(e) => setType(e.target.value as SpecType)}>
          {SPEC_TYPES.map((t) => (
            <option key={t} value={t}>
              {SPEC_TYPE_LABELS[t]}
            </option>
          ))}
        </SelectField>
      </div>
      <Field label="Spec description" value={description} onChange={(e) => setDescription(e.target.value)} placeholder="What annotators judge" error={fields.description} />
      {type === "numeric" && (
        <div className="grid grid-cols-3 items-end gap-3">
          <Field label="Minimum" type="number" value={min} onChange={(e) => setMin(e.target.value)} error={fields.min} />
          <Field label="Maximum" type="number" value={max} onChange={(e) => setMax(e.target.value)} error={fields.max} />
          <div className="pb-2.5">
            <CheckboxLabel label="Whole numbers" checked={integer} onChange={setInteger} />
          </div>
        </div>
      )}
      {type === "preferred_choice" && (
        <p className="text-xs text-zinc-500">Annotators see the call's answers side by side and pick the better one (and, with more than two, the one it beats). Only for calls made with n ≥ 2.</p>
      )}
      {type === "categorical" && (
        <Field label="Options" value={options} onChange={(e) => setOptions(e.target.value)} placeholder="good, bad, unsure" hint="Comma-separated." error={fields.options} />
      )}
      {create.isError && Object.keys(fields).length === 0 && <Alert title="Could not create the spec">{errorMessage(create.error)}</Alert>}
      <Button variant="secondary" size="sm" onClick={submit} disabled={create.isPending || !name.trim()}>
        {create.isPending ? "Creating…" : "Create spec"}
      </Button>
    </div>
  );
}
