"use client";

import { X } from "lucide-react";
import { useId, useState, type ReactNode } from "react";
import type { Model } from "@/components/inference/queries";
import { CheckpointPicker } from "@/components/playground/checkpoint-picker";
import type { RunSettings, SettingsErrors, SettingsField } from "@/components/playground/run-settings";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/client/api-fetch";

// The parameters of one column: model (base models and trained models, one of its checkpoints),
// sampling, length, seed, stop sequences, a JSON schema for structured output, and logprobs.
// Validation messages sit under each field; empty fields take the server's defaults.

const COMPACT_INPUT =
  "block rounded-md border border-zinc-300 bg-white px-2 py-1 text-[13px] text-zinc-900 shadow-xs placeholder:text-zinc-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none aria-invalid:border-red-400";

function Row({ label, hint, error, htmlFor, children, wide }: { label: string; hint?: string; error?: string; htmlFor: string; children: ReactNode; wide?: boolean }) {
  return (
    <div>
      <div className={wide ? "space-y-1" : "flex items-center justify-between gap-3"}>
        <label htmlFor={htmlFor} className="text-[13px] font-medium text-zinc-700" title={hint}>
          {label}
        </label>
        {children}
      </div>
      {error && (
        <p id={`${htmlFor}-error`} className="mt-1 text-[11px] text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}

function NumberRow({
  label, hint, value, onChange, error, placeholder, step, slider,
}: {
  label: string; hint?: string; value: string; onChange: (v: string) => void; error?: string; placeholder?: string; step?: string;
  slider?: { min: number; max: number; step: number };
}) {
  const id = useId();
  return (
    <div>
      <Row label={label} hint={hint} error={error} htmlFor={id}>
        <input
          id={id}
          inputMode="decimal"
          value={value}
          placeholder={placeholder}
          step={step}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={`${COMPACT_INPUT} w-20 text-right tabular-nums`}
        />
      </Row>
      {slider && (
        <input
          type="range"
          aria-label={`${label} slider`}
          tabIndex={-1}
          min={slider.min}
          max={slider.max}
          step={slider.step}
          value={Number.isFinite(Number(value)) && value !== "" ? Number(value) : slider.max / 2}
          onChange={(e) => onChange(e.target.value)}
          className="mt-1 h-1 w-full cursor-pointer accent-brand-600"
        />
      )}
    </div>
  );
}

/** The slice of useModels()'s result the picker reads. */
export interface ModelsQuery {
  data?: Model[];
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

const CHECKPOINT = /^(.*):step(\d+)$/;

function ModelPicker({ value, onChange, models, error }: { value: string; onChange: (model: string) => void; models: ModelsQuery; error?: string }) {
  const id = useId();
  const stepId = useId();
  const match = CHECKPOINT.exec(value);
  const base = match ? match[1] : value;
  const step = match ? match[2] : "";
  const list = models.data ?? [];
  const selected = base || list.find((m) => m.default)?.id || "";
  const isTrained = list.find((m) => m.id === selected)?.parent != null;
  const known = list.some((m) => m.id === selected);

  if (models.isPending) return <Skeleton className="h-8 w-full" />;
  if (models.isError) {
    return (
      <div className="space-y-1.5">
        <p role="alert" className="text-[11px] text-red-600">Could not load models: {errorMessage(models.error)}</p>
        <button type="button" onClick={() => models.refetch()} className="text-[12px] font-medium text-brand-700 hover:underline">
          Retry
        </button>
      </div>
    );
  }
  const baseModels = list.filter((m) => m.parent === null);
  const trained = list.filter((m) => m.parent !== null);
  return (
    <div className="space-y-2">
      <Row label="Model" htmlFor={id} error={error} wide>
        <select id={id} value={selected} onChange={(e) => onChange(e.target.value)} className={`${COMPACT_INPUT} w-full pr-7`} aria-invalid={error ? true : undefined}>
          <optgroup label="Base models">
            {baseModels.map((m) => (
              <option key={m.id} value={m.id}>
                {m.id}
                {m.default ? " (default)" : ""}
              </option>
            ))}
          </optgroup>
          <optgroup label={trained.length > 0 ? "Trained models" : "Trained models (none yet)"}>
            {trained.map((m) => (
              <option key={m.id} value={m.id}>
                {m.id}
              </option>
            ))}
          </optgroup>
          {!known && selected && <option value={selected}>{selected}</option>}
        </select>
      </Row>
      {isTrained && (
        <Row label="Checkpoint" htmlFor={stepId} hint="One of this model's checkpoints, or its latest" wide>
          <CheckpointPicker
            id={stepId}
            className={`${COMPACT_INPUT} w-full pr-7`}
            model={selected}
            step={step}
            onChange={(next) => onChange(next ? `${selected}:step${next}` : selected)}
          />
        </Row>
      )}
      {list.find((m) => m.id === selected)?.description && (
        <p className="text-[11px] leading-snug text-zinc-500">{list.find((m) => m.id === selected)?.description}</p>
      )}
    </div>
  );
}

function StopSequences({ value, onChange }: { value: string[]; onChange: (stop: string[]) => void }) {
  const id = useId();
  const [draft, setDraft] = useState("");
  const add = () => {
    const text = draft.replaceAll("\\n", "\n");
    if (text && !value.includes(text)) onChange([...value, text]);
    setDraft("");
  };
  return (
    <Row label="Stop sequences" htmlFor={id} wide hint="Generation stops before any of these; \n for a newline">
      <div className="flex min-h-8 flex-wrap items-center gap-1 rounded-md border border-zinc-300 bg-white px-1.5 py-1 shadow-xs focus-within:border-brand-500 focus-within:ring-2 focus-within:ring-brand-500/30">
        {value.map((stop) => (
          <span key={stop} className="inline-flex items-center gap-0.5 rounded bg-zinc-100 py-0.5 pr-0.5 pl-1.5 font-mono text-[11px] text-zinc-700 ring-1 ring-zinc-200">
            {JSON.stringify(stop).slice(1, -1)}
            <button type="button" aria-label={`Remove stop sequence ${stop}`} onClick={() => onChange(value.filter((s) => s !== stop))} className="rounded p-0.5 text-zinc-400 hover:bg-zinc-200 hover:text-zinc-700">
              <X className="size-3" />
            </button>
          </span>
        ))}
        <input
          id={id}
          value={draft}
          placeholder={value.length ? "" : "Type, then Enter"}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !(e.metaKey || e.ctrlKey)) {
              e.preventDefault();
              add();
            } else if (e.key === "Backspace" && !draft && value.length) onChange(value.slice(0, -1));
          }}
          onBlur={() => draft && add()}
          className="min-w-16 flex-1 border-0 bg-transparent p-0.5 text-[13px] focus:outline-none"
        />
      </div>
    </Row>
  );
}

export interface ParamsPanelProps {
  settings: RunSettings;
  onChange: (settings: RunSettings) => void;
  errors: SettingsErrors;
  models: ModelsQuery;
}

export function ParamsPanel({ settings, onChange, errors, models }: ParamsPanelProps) {
  const set = <K extends keyof RunSettings>(key: K, value: RunSettings[K]) => onChange({ ...settings, [key]: value });
  const schemaId = useId();
  const schemaNameId = useId();
  const err = (field: SettingsField) => errors[field];
  return (
    <div className="space-y-3.5">
      <ModelPicker value={settings.model} onChange={(model) => set("model", model)} models={models} error={err("model")} />
      <hr className="border-zinc-100" />
      <NumberRow label="Temperature" hint="0 = greedy; higher = more varied" value={settings.temperature} onChange={(v) => set("temperature", v)} error={err("temperature")} placeholder="1" slider={{ min: 0, max: 2, step: 0.05 }} />
      <NumberRow label="Top P" hint="Nucleus sampling: keep the smallest set of tokens with this total probability" value={settings.top_p} onChange={(v) => set("top_p", v)} error={err("top_p")} placeholder="1" slider={{ min: 0.01, max: 1, step: 0.01 }} />
      <NumberRow label="Top K" hint="Sample among the K most likely tokens; empty or 0 = off" value={settings.top_k} onChange={(v) => set("top_k", v)} error={err("top_k")} placeholder="off" />
      <NumberRow label="Max tokens" hint="Empty = up to the model's context length" value={settings.max_tokens} onChange={(v) => set("max_tokens", v)} error={err("max_tokens")} placeholder="∞" />
      <NumberRow label="Seed" hint="Same seed, same parameters, same answer" value={settings.seed} onChange={(v) => set("seed", v)} error={err("seed")} placeholder="random" />
      <StopSequences value={settings.stop} onChange={(stop) => set("stop", stop)} />
      <hr className="border-zinc-100" />
      <div className="space-y-2">
        <label className="flex items-center justify-between gap-3 text-[13px] font-medium text-zinc-700">
          JSON schema
          <input type="checkbox" checked={settings.jsonSchema.enabled} onChange={(e) => set("jsonSchema", { ...settings.jsonSchema, enabled: e.target.checked })} className="size-4 accent-brand-600" />
        </label>
        {settings.jsonSchema.enabled && (
          <>
            <div className="flex items-center gap-2">
              <label htmlFor={schemaNameId} className="text-[12px] text-zinc-500">
                Name
              </label>
              <input id={schemaNameId} value={settings.jsonSchema.name} onChange={(e) => set("jsonSchema", { ...settings.jsonSchema, name: e.target.value })} className={`${COMPACT_INPUT} w-full`} />
            </div>
            <textarea
              id={schemaId}
              aria-label="JSON schema"
              rows={7}
              spellCheck={false}
              value={settings.jsonSchema.text}
              onChange={(e) => set("jsonSchema", { ...settings.jsonSchema, text: e.target.value })}
              aria-invalid={err("json_schema") ? true : undefined}
              className={`${COMPACT_INPUT} w-full resize-y font-mono text-[11px] leading-snug`}
            />
            {err("json_schema") && <p className="text-[11px] text-red-600">{err("json_schema")}</p>}
          </>
        )}
      </div>
      <hr className="border-zinc-100" />
      <div className="space-y-2">
        <label className="flex items-center justify-between gap-3 text-[13px] font-medium text-zinc-700">
          Logprobs
          <input type="checkbox" checked={settings.logprobs} onChange={(e) => set("logprobs", e.target.checked)} className="size-4 accent-brand-600" />
        </label>
        {settings.logprobs && (
          <NumberRow label="Alternatives per token" hint="top_logprobs, 0 to 20" value={settings.top_logprobs} onChange={(v) => set("top_logprobs", v)} error={err("top_logprobs")} placeholder="0" />
        )}
      </div>
    </div>
  );
}
