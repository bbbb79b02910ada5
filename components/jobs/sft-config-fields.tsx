"use client";

import { Field, SelectField } from "@/components/ui/field";

// The SFT config every launch form shares: batch size, learning rate, assistant turns. Values are
// read from the form by name; empty means the server's default.

export interface SftConfig {
  batch_size?: number;
  learning_rate?: number;
  assistant_turns?: "all" | "last";
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
  const turns = text("assistant_turns");
  if (turns === "all" || turns === "last") config.assistant_turns = turns;
  return { config, errors };
}

export function SftConfigFields({ errors }: { errors: Record<string, string | undefined> }) {
  return (
    <fieldset className="grid grid-cols-3 gap-3">
      <legend className="sr-only">Training settings</legend>
      <Field label="Batch size" name="batch_size" inputMode="numeric" placeholder="2" error={errors["config.batch_size"]} hint="Examples per step" />
      <Field label="Learning rate" name="learning_rate" inputMode="decimal" placeholder="model default" error={errors["config.learning_rate"]} />
      <SelectField label="Assistant turns" name="assistant_turns" defaultValue="all" error={errors["config.assistant_turns"]} hint="Which turns to learn">
        <option value="all">all</option>
        <option value="last">last</option>
      </SelectField>
    </fieldset>
  );
}
