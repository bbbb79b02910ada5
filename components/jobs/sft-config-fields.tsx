"use client";

import { useState } from "react";
import { JobCostEstimate } from "@/components/jobs/training-cost";
import type { TrainedModel } from "@/components/models/queries";
import { Field, SelectField } from "@/components/ui/field";
import { CONSOLE_SFT_DEFAULTS, planSteps, planTokens, trainingPreview } from "@/lib/client/sft-plan";

// The SFT config every launch form shares: batch size, learning rate, epochs, the share held out
// for validation, assistant turns; the gradient steps they make for the examples chosen, and what
// one example trains on, and what the job will cost. Values are read from the form by name; an empty
// field means the server's default. Epochs and the validation share start at the console's defaults (lib/client/sft-plan.ts).

export interface SftConfig {
  batch_size?: number;
  learning_rate?: number;
  assistant_turns?: "all" | "last";
  epochs?: number;
  validation_fraction?: number;
}

/** The examples a form is about to send: how many, the first one (for the preview), and the
 *  characters of all of them (for the job's tokens). */
export interface ChosenExamples {
  count: number;
  first: { messages?: unknown } | null;
  characters: number;
}

/** The config from the form, and a message per field the API would refuse. */
export function readSftConfig(form: FormData): { config: SftConfig; errors: Record<string, string> } {
  const text = (name: string) => String(form.get(name) ?? "").trim();
  const config: SftConfig = {};
  const errors: Record<string, string> = {};
  const batch = text("batch_size");
  if (batch) {
    const n = Number(batch);
    if (Number.isInteger(n) && n >= 1) config.batch_size = n;
    else errors["config.batch_size"] = "A whole number, at least 1.";
  }
  const lr = text("learning_rate");
  if (lr) {
    const n = Number(lr);
    if (Number.isFinite(n) && n > 0) config.learning_rate = n;
    else errors["config.learning_rate"] = "A positive number, e.g. 1e-4.";
  }
  const epochs = text("epochs");
  if (epochs) {
    const n = Number(epochs);
    if (Number.isInteger(n) && n >= 1 && n <= 100) config.epochs = n;
    else errors["config.epochs"] = "A whole number from 1 to 100.";
  }
  const held = text("validation_percent");
  if (held) {
    const n = Number(held);
    if (Number.isFinite(n) && n >= 0 && n <= 50) config.validation_fraction = n / 100;
    else errors["config.validation_fraction"] = "A percentage from 0 to 50.";
  }
  const turns = text("assistant_turns");
  if (turns === "all" || turns === "last") config.assistant_turns = turns;
  return { config, errors };
}

/** The API's field names these fields show errors for. */
export const SFT_CONFIG_FIELDS = ["config.batch_size", "config.learning_rate", "config.assistant_turns", "config.epochs", "config.validation_fraction"];

const wholeOr = (text: string, fallback: number) => (/^\d+$/.test(text.trim()) && Number(text) >= 1 ? Number(text) : fallback);

export function SftConfigFields({ model, errors, examples }: { model: TrainedModel; errors: Record<string, string | undefined>; examples?: ChosenExamples }) {
  const [batch, setBatch] = useState("");
  const [epochs, setEpochs] = useState(String(CONSOLE_SFT_DEFAULTS.epochs));
  const [held, setHeld] = useState(String(CONSOLE_SFT_DEFAULTS.validation_fraction * 100));
  const [turns, setTurns] = useState<"all" | "last">("all");
  const heldFraction = Number(held);
  const plan = examples?.count
    ? planSteps({
        examples: examples.count,
        batchSize: wholeOr(batch, CONSOLE_SFT_DEFAULTS.batch_size),
        epochs: wholeOr(epochs, 1),
        validationFraction: Number.isFinite(heldFraction) ? Math.min(Math.max(heldFraction, 0), 50) / 100 : 0,
      })
    : null;
  return (
    <div className="space-y-3">
      <fieldset className="grid grid-cols-3 gap-3">
        <legend className="sr-only">Training settings</legend>
        <Field label="Batch size" name="batch_size" inputMode="numeric" placeholder={String(CONSOLE_SFT_DEFAULTS.batch_size)} value={batch} onChange={(e) => setBatch(e.target.value)} error={errors["config.batch_size"]} hint="Examples per step" />
        <Field label="Learning rate" name="learning_rate" inputMode="decimal" placeholder="model default" error={errors["config.learning_rate"]} />
        <Field label="Epochs" name="epochs" inputMode="numeric" value={epochs} onChange={(e) => setEpochs(e.target.value)} error={errors["config.epochs"]} hint="Passes over the data" />
        <Field
          label="Validation %"
          name="validation_percent"
          inputMode="decimal"
          value={held}
          onChange={(e) => setHeld(e.target.value)}
          error={errors["config.validation_fraction"]}
          hint="Held out: val/loss, early stop"
        />
        <SelectField label="Assistant turns" name="assistant_turns" value={turns} onChange={(e) => setTurns(e.target.value === "last" ? "last" : "all")} error={errors["config.assistant_turns"]} hint="Which turns to learn">
          <option value="all">all</option>
          <option value="last">last</option>
        </SelectField>
      </fieldset>
      {plan && (
        <p data-testid="sft-steps" className="text-xs text-zinc-600" aria-live="polite">
          {examples!.count} examples: {plan.train} trained on{plan.validation > 0 && `, ${plan.validation} held out for validation`}; {plan.stepsPerEpoch} step
          {plan.stepsPerEpoch === 1 ? "" : "s"} per epoch × {wholeOr(epochs, 1)} = <strong className="tabular-nums">
            {plan.steps} gradient step{plan.steps === 1 ? "" : "s"}
          </strong>
        </p>
      )}
      {plan && <JobCostEstimate model={model} steps={plan.steps} tokens={planTokens({ characters: examples!.characters, plan, examples: examples!.count, epochs: wholeOr(epochs, 1) })} />}
      {examples?.first && <TrainingPreview example={examples.first} turns={turns} />}
    </div>
  );
}

/** One example as the job sees it: the assistant turns it learns highlighted, the rest context. */
function TrainingPreview({ example, turns }: { example: { messages?: unknown }; turns: "all" | "last" }) {
  const parts = trainingPreview(example, turns);
  if (parts.length === 0) return null;
  return (
    <figure data-testid="sft-preview" className="rounded-md border border-zinc-200 bg-zinc-50 p-2 text-xs">
      <figcaption className="mb-1 text-zinc-500">
        First example: <mark className="rounded bg-amber-100 px-1 text-amber-900">highlighted</mark> turns are trained (through their end of turn); the rest is context.
      </figcaption>
      <ol className="max-h-40 space-y-1 overflow-auto">
        {parts.map((part, i) => (
          <li key={i} data-trained={part.trained} className={`rounded px-1.5 py-0.5 whitespace-pre-wrap ${part.trained ? "bg-amber-100 text-amber-950" : "text-zinc-500"}`}>
            <span className="mr-1 font-mono text-[10px] uppercase">{part.role}</span>
            {part.text}
          </li>
        ))}
      </ol>
    </figure>
  );
}
