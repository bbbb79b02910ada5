"use client";

import { Plus } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useAddBaseModel, useBaseModelCandidates, type BaseModelCandidate } from "@/components/base-models/queries";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { ApiError, errorMessage } from "@/lib/client/api-fetch";
import { formatBytes, formatCount } from "@/lib/client/sizes";

// "Add a base": the GGUF files in the models directory (ANNEAL_MODELS_DIR), each with what the
// trainer's checks found — architecture, weight type, whether it trains and how, or why not in plain
// words — then a name, the Hugging Face names clients may use for it, and a description.

/** "org/Model-A, org/Model-B" → the list the API takes. */
const hfNames = (text: string) => text.split(",").map((name) => name.trim()).filter(Boolean);

export function AddBaseModelDialog() {
  const [open, setOpen] = useState(false);
  const candidates = useBaseModelCandidates(open);
  const add = useAddBaseModel();
  const [file, setFile] = useState<string>();
  const [missing, setMissing] = useState<Record<string, string>>({});
  const chosen = candidates.data?.find((c) => c.file === file);
  const error = add.error;
  const fields: Record<string, string> = error instanceof ApiError ? { ...error.fields } : {};
  if (error instanceof ApiError && error.status === 409) fields.name = error.message;
  const fieldError = (name: string) => missing[name] ?? fields[name];
  const unplaced = add.isError && !Object.keys(fields).length;

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      add.reset();
      setFile(undefined);
      setMissing({});
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (key: string) => String(form.get(key) ?? "").trim();
    const empty: Record<string, string> = {};
    if (!chosen) empty.file = "Pick a file from the models directory.";
    if (!text("name")) empty.name = "Name the base, e.g. qwen2.5-0.5b-instruct.";
    setMissing(empty);
    if (!chosen || Object.keys(empty).length) return;
    add.mutate(
      { name: text("name"), file: chosen.file, hf_name: hfNames(text("hf_name")), description: text("description") || undefined, trainable: chosen.refusal === null },
      { onSuccess: () => onOpenChange(false) },
    );
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button size="sm">
          <Plus /> Add a base
        </Button>
      </DialogTrigger>
      <DialogContent size="lg" title="Add a base model" description="From a GGUF file already in the models directory (ANNEAL_MODELS_DIR). Checked as the trainer reads it before anything is saved.">
        <form onSubmit={onSubmit} className="space-y-4" noValidate>
          <fieldset>
            <legend className="mb-1.5 text-sm font-medium text-zinc-800">File</legend>
            {candidates.isPending ? (
              <p className="text-sm text-zinc-500">Reading the models directory…</p>
            ) : candidates.isError ? (
              <Alert>Could not read the models directory: {errorMessage(candidates.error)}</Alert>
            ) : candidates.data.length === 0 ? (
              <p className="text-sm text-zinc-500">No GGUF files in the models directory. Copy one there (e.g. a Qwen2.5 or Llama 3.2 download), then open this again.</p>
            ) : (
              <ul className="max-h-64 space-y-1.5 overflow-y-auto">
                {candidates.data.map((candidate) => (
                  <li key={candidate.file}>
                    <CandidateOption candidate={candidate} checked={file === candidate.file} onChoose={() => setFile(candidate.file)} />
                  </li>
                ))}
              </ul>
            )}
            {fieldError("file") && <p className="mt-1 text-xs text-red-700">{fieldError("file")}</p>}
          </fieldset>
          <Field label="Name" name="name" required maxLength={128} placeholder="qwen2.5-0.5b-instruct" error={fieldError("name")} hint="What clients pass as model; letters, digits, . _ - /" />
          <Field
            label="Hugging Face names"
            name="hf_name"
            placeholder="Qwen/Qwen2.5-0.5B-Instruct"
            error={fieldError("hf_name") ?? fieldError("hf_name.0")}
            hint="Comma-separated; ART's TrainableModel(base_model=…) and PEFT exports use them."
          />
          <Field label="Description" name="description" maxLength={500} error={fieldError("description")} />
          {unplaced && <Alert>{errorMessage(add.error)}</Alert>}
          <DialogActions label="Add base" pendingLabel="Adding…" pending={add.isPending} />
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** One file: what the checks found, or why it cannot train. */
function CandidateOption({ candidate, checked, onChoose }: { candidate: BaseModelCandidate; checked: boolean; onChoose: () => void }) {
  const facts = [
    candidate.architecture,
    candidate.weight_type,
    candidate.parameters != null && `${formatCount(candidate.parameters)} parameters`,
    candidate.context_length != null && `${candidate.context_length.toLocaleString("en")}-token context`,
    candidate.size_bytes != null && formatBytes(candidate.size_bytes),
  ].filter(Boolean);
  const registered = candidate.registered_as !== null;
  return (
    <label
      data-testid="base-candidate"
      className={`flex gap-2.5 rounded-lg border p-2.5 text-sm ${checked ? "border-brand-500 bg-brand-50/40" : "border-zinc-200"} ${registered ? "opacity-60" : "cursor-pointer hover:border-zinc-300"}`}
    >
      <input type="radio" name="file" value={candidate.file} checked={checked} disabled={registered} onChange={onChoose} className="mt-0.5 accent-brand-600" />
      <span className="min-w-0 space-y-0.5">
        <span className="block font-mono text-[13px] font-medium break-all text-zinc-900">{candidate.file}</span>
        {facts.length > 0 && <span className="block text-xs text-zinc-600">{facts.join(" · ")}</span>}
        <span className="block text-xs">
          {registered ? (
            <span className="text-zinc-500">Already added as {candidate.registered_as}.</span>
          ) : candidate.refusal ? (
            <span className="text-amber-800">Serves, but does not train: {candidate.refusal}</span>
          ) : (
            <span className="text-emerald-700">Trains: {candidate.train_modes.map((m) => (m === "lora" ? "LoRA adapters" : "full weights")).join(" and ")}</span>
          )}
        </span>
      </span>
    </label>
  );
}
