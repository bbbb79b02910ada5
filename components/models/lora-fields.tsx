"use client";

import { useState } from "react";
import { AdapterSizeNote } from "@/components/models/adapter-size-note";
import { Field, SelectField } from "@/components/ui/field";
import { Segmented } from "@/components/ui/segmented";
import { DEFAULT_LORA_CONFIG, LORA_TARGET_OF_MODULE, type LoraModule } from "@/lib/engine/model/lora";
import { LORA_RANKS, type LoraSettings } from "@/lib/engine/model/lora-settings";

// "How it trains" in the New model dialog: full weights, or a LoRA adapter with its rank, alpha,
// dropout and target modules (the API's defaults preset) and the adapter's size on the base. The form
// reads the values by name.

const MODULES = Object.keys(LORA_TARGET_OF_MODULE) as LoraModule[];

export type TrainingMode = "full" | "lora";

/** `loraOnly`: the base was not made by Anneal, so its models train LoRA adapters only (no choice shown). */
export function TrainingModeFields({ baseModel, fieldError, loraOnly = false }: { baseModel: string; fieldError: (name: string) => string | undefined; loraOnly?: boolean }) {
  const [mode, setMode] = useState<TrainingMode>(loraOnly ? "lora" : "full");
  const [rank, setRank] = useState(String(DEFAULT_LORA_CONFIG.rank));
  const [modules, setModules] = useState<LoraModule[]>(MODULES);
  const toggle = (module: LoraModule, on: boolean) => setModules((now) => MODULES.filter((m) => (m === module ? on : now.includes(m))));
  return (
    <fieldset className="space-y-3">
      <legend id="training-mode-label" className="mb-1.5 text-sm font-medium text-zinc-800">
        How it trains
      </legend>
      <input type="hidden" name="training_mode" value={mode} />
      {!loraOnly && (
        <Segmented<TrainingMode>
          aria-labelledby="training-mode-label"
          variant="subtle"
          options={[
            { value: "lora", label: "Adapter (LoRA)" },
            { value: "full", label: "Full weights" },
          ]}
          value={mode}
          onChange={setMode}
        />
      )}
      <p className="text-xs text-zinc-500">
        {mode === "full"
          ? "Every weight is updated; each checkpoint is a whole model file."
          : `${loraOnly ? "This base trains LoRA adapters only. " : ""}The base stays frozen; each checkpoint is a small adapter that llama.cpp and vLLM load over the base. Fixed once the model exists.`}
      </p>
      {mode === "lora" && (
        <div className="space-y-3 rounded-lg border border-zinc-200 bg-zinc-50 p-3">
          <div className="grid grid-cols-3 gap-3">
            <SelectField label="Rank" name="lora.rank" value={rank} onChange={(e) => setRank(e.target.value)} error={fieldError("lora.rank")}>
              {LORA_RANKS.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </SelectField>
            <Field label="Alpha" name="lora.alpha" type="number" min={0} step="any" defaultValue={DEFAULT_LORA_CONFIG.alpha} error={fieldError("lora.alpha")} hint="Scale: alpha / rank" />
            <Field label="Dropout" name="lora.dropout" type="number" min={0} max={0.5} step={0.01} defaultValue={DEFAULT_LORA_CONFIG.dropout} error={fieldError("lora.dropout")} hint="0–0.5" />
          </div>
          <div role="group" aria-labelledby="lora-modules-label">
            <p id="lora-modules-label" className="mb-1 text-xs font-medium text-zinc-700">
              Target modules
            </p>
            <div className="flex flex-wrap gap-x-4 gap-y-1.5">
              {MODULES.map((module) => (
                <label key={module} className="flex items-center gap-1.5 font-mono text-xs text-zinc-700">
                  <input
                    type="checkbox"
                    name="lora.target_modules"
                    value={module}
                    checked={modules.includes(module)}
                    onChange={(e) => toggle(module, e.target.checked)}
                    className="size-3.5 accent-brand-600"
                  />
                  {module}
                </label>
              ))}
            </div>
            {fieldError("lora.target_modules") && <p className="mt-1 text-xs text-red-700">{fieldError("lora.target_modules")}</p>}
          </div>
          <AdapterSizeNote baseModel={baseModel} rank={Number(rank)} modules={modules} />
        </div>
      )}
    </fieldset>
  );
}

/** The `lora` body field from the form: null for full weights. */
export function loraFromForm(form: FormData): LoraSettings | null {
  if (form.get("training_mode") !== "lora") return null;
  return {
    rank: Number(form.get("lora.rank")),
    alpha: Number(form.get("lora.alpha")),
    dropout: Number(form.get("lora.dropout")),
    // Unchecked all: an empty list, which the API answers with a 422 on the field.
    target_modules: form.getAll("lora.target_modules").map(String) as LoraModule[],
  };
}
