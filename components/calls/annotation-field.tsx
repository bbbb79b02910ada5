"use client";

import { useState, type FormEvent, type ReactNode } from "react";
import { ANNOTATION_PREFIX, useMyFeedback, useSetOwnFeedback, type JudgedCall } from "@/components/calls/feedback";
import type { AnnotationSpec } from "@/components/calls/queries";
import { Button } from "@/components/ui/button";
import { INPUT_CLASS } from "@/components/ui/field";
import { Segmented } from "@/components/ui/segmented";
import { errorMessage } from "@/lib/client/api-fetch";
import { isCorrection } from "@/lib/feedback/corrections";

// One's own value for one annotation spec of the project on a call (one per person and spec):
// an input for the spec's type — a number in its range, yes/no, one of its options, a text, a
// corrected reply, or which answer of the call is preferred over which — saved as
// `wandb.annotation.<name>` against the spec's current version.

const YES_NO = [
  { value: true, label: "Yes" },
  { value: false, label: "No" },
] as const;

/** Takes one's value back. */
function ClearButton({ blocked, onClear }: { blocked: boolean; onClear: () => void }) {
  return (
    <Button variant="ghost" size="sm" disabled={blocked} onClick={onClear}>
      Clear
    </Button>
  );
}

/** The preferred answer and the one it beats, as two selects of the call's choices (numbered from 1). */
function PreferenceSelects({ id, saved, choiceCount, blocked, onSave }: { id: string; saved: unknown; choiceCount: number; blocked: boolean; onSave: (value: { preferred: number; over: number }) => void }) {
  const stored = typeof saved === "object" && saved !== null ? (saved as { preferred?: number; over?: number }) : {};
  const [preferred, setPreferred] = useState(stored.preferred ?? 0);
  const [over, setOver] = useState(stored.over ?? 1);
  if (choiceCount < 2) return <p className="text-xs text-zinc-500">This call has one answer: a preferred choice needs a call made with n ≥ 2.</p>;
  const options = Array.from({ length: choiceCount }, (_, i) => (
    <option key={i} value={i}>
      choice {i + 1}
    </option>
  ));
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <select id={id} aria-label="Preferred answer" value={preferred} disabled={blocked} onChange={(e) => setPreferred(Number(e.target.value))} className={`${INPUT_CLASS} w-auto pr-8`}>
        {options}
      </select>
      <span className="text-zinc-500">over</span>
      <select aria-label="Preferred over" value={over} disabled={blocked} onChange={(e) => setOver(Number(e.target.value))} className={`${INPUT_CLASS} w-auto pr-8`}>
        {options}
      </select>
      <Button size="sm" disabled={blocked || preferred === over || (stored.preferred === preferred && stored.over === over)} onClick={() => onSave({ preferred, over })}>
        Save
      </Button>
    </div>
  );
}

export function AnnotationField({ call, spec, answer, choiceCount }: { call: JudgedCall; spec: AnnotationSpec; answer: string; choiceCount: number }) {
  const type = `${ANNOTATION_PREFIX}${spec.name}`;
  const { mine, ready, settled } = useMyFeedback(call);
  const set = useSetOwnFeedback(call);
  const current = mine(type);
  const saved = current[0]?.payload.value;
  const [draft, setDraft] = useState<string | null>(null);
  const id = `annotation-${spec.name}`;

  const save = (value: unknown) => set.mutate({ type, payload: { value }, annotationRef: spec.ref, current }, { onSuccess: () => setDraft(null) });
  const clear = () => set.mutate({ type, payload: null, current }, { onSuccess: () => setDraft(null) });
  // Inputs wait for the rows to load; saving also for them to be read again after a change.
  const disabled = !ready || set.isPending;
  const blocked = !settled || set.isPending;

  let input: ReactNode;
  if (spec.type === "boolean") {
    input = (
      <div className="flex items-center gap-1.5">
        <Segmented
          variant="choices"
          aria-labelledby={`${id}-label`}
          options={YES_NO.map((option) => ({ ...option, disabled: blocked }))}
          value={typeof saved === "boolean" ? saved : undefined}
          onChange={save}
        />
        {saved !== undefined && <ClearButton blocked={blocked} onClear={clear} />}
      </div>
    );
  } else if (spec.type === "preferred_choice") {
    input = (
      <div className="flex items-center gap-2">
        {/* Keyed by the saved value: the selects start from it once one's rows have loaded. */}
        <PreferenceSelects key={JSON.stringify(saved ?? null)} id={id} saved={saved} choiceCount={choiceCount} blocked={blocked} onSave={save} />
        {saved !== undefined && <ClearButton blocked={blocked} onClear={clear} />}
      </div>
    );
  } else if (spec.type === "categorical") {
    input = (
      <div className="flex items-center gap-2">
        <select id={id} value={typeof saved === "string" ? saved : ""} disabled={blocked} onChange={(e) => (e.target.value ? save(e.target.value) : clear())} className={`${INPUT_CLASS} pr-8`}>
          <option value="">—</option>
          {spec.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </div>
    );
  } else {
    const numeric = spec.type === "numeric";
    const text = draft ?? (saved === undefined ? (spec.type === "corrected_reply" ? answer : "") : String(saved));
    const unchanged = spec.type === "corrected_reply" && text.trim() !== "" && !isCorrection(text, answer);
    const onSubmit = (event: FormEvent) => {
      event.preventDefault();
      if (numeric) {
        if (text.trim() === "" || !Number.isFinite(Number(text))) return;
        save(Number(text));
      } else save(text);
    };
    input = (
      <form onSubmit={onSubmit} className="space-y-2">
        {numeric ? (
          <input id={id} type="number" inputMode="decimal" min={spec.min} max={spec.max} step={spec.integer ? 1 : "any"} value={text} disabled={disabled} onChange={(e) => setDraft(e.target.value)} className={`${INPUT_CLASS} max-w-40`} />
        ) : (
          <textarea id={id} rows={spec.type === "corrected_reply" ? 5 : 2} maxLength={"max_length" in spec ? spec.max_length : undefined} value={text} disabled={disabled} onChange={(e) => setDraft(e.target.value)} className={INPUT_CLASS} />
        )}
        <div className="flex items-center justify-end gap-2">
          {saved !== undefined && <ClearButton blocked={blocked} onClear={clear} />}
          {unchanged && <span className="mr-auto text-xs text-zinc-500">Edit the model&apos;s reply to correct it: an unchanged one is not saved.</span>}
          <Button type="submit" size="sm" disabled={blocked || text.trim() === "" || unchanged || (saved !== undefined && text === String(saved))}>
            {set.isPending ? "Saving…" : "Save"}
          </Button>
        </div>
      </form>
    );
  }

  const range = spec.type === "numeric" && (spec.min !== undefined || spec.max !== undefined) ? ` (${spec.min ?? "−∞"} to ${spec.max ?? "∞"})` : "";
  return (
    <div className="space-y-1.5" data-testid="annotation-field" data-spec={spec.name}>
      <label id={`${id}-label`} htmlFor={spec.type === "boolean" ? undefined : id} className="block text-sm font-medium text-zinc-800">
        {spec.name}
        <span className="font-normal text-zinc-500">{range}</span>
      </label>
      {spec.description && <p className="text-xs text-zinc-500">{spec.description}</p>}
      {input}
      {set.isError && (
        <p role="alert" className="text-xs text-red-600">
          {errorMessage(set.error)}
        </p>
      )}
    </div>
  );
}
