"use client";

import { choicesOf, numericChoices, type FieldValue } from "@/lib/client/annotation-form";
import type { QueueSpecDto } from "@/components/annotate/queries";
import { PreferencePicker } from "@/components/annotate/preference-picker";
import { Kbd } from "@/components/playground/kbd";
import { INPUT_CLASS } from "@/components/ui/field";
import { Segmented } from "@/components/ui/segmented";

// One field of the annotation form, for one spec of the queue: choices (yes/no, a category, the
// numbers of a small range) as buttons numbered for the digit keys, a number, a text, a corrected reply, or the preferred one
// of the call's answers. `active` is the
// field the keyboard acts on (j/k move it); focusing any control in it makes it active.

export interface SpecFieldProps {
  spec: QueueSpecDto;
  value: FieldValue;
  error?: string;
  active: boolean;
  /** How many answers the call has (what a preferred choice picks from). */
  choiceCount: number;
  onChange: (value: FieldValue) => void;
  onActivate: () => void;
}

const choiceLabel = (choice: FieldValue) => (choice === true ? "Yes" : choice === false ? "No" : String(choice));
/** A yes/no or category value (what choicesOf lists), as against a preference or nothing. */
const isChoice = (value: FieldValue): value is string | boolean => typeof value === "string" || typeof value === "boolean";

export const fieldDomId = (spec: QueueSpecDto) => `annotate-field-${spec.name}`;
/** The typing control of a field (a number, text or reply), which Enter focuses. */
export const inputDomId = (spec: QueueSpecDto) => `${fieldDomId(spec)}-input`;

type NumericSpec = Extract<QueueSpecDto, { type: "numeric" }>;

function NumberInput({ spec, value, error, errorId, labelId, onChange }: { spec: NumericSpec; value: FieldValue; error?: string; errorId?: string; labelId: string; onChange: (value: FieldValue) => void }) {
  return (
    <input
      id={inputDomId(spec)}
      aria-labelledby={labelId}
      aria-describedby={errorId}
      aria-invalid={error ? true : undefined}
      type="number"
      inputMode="decimal"
      min={spec.min}
      max={spec.max}
      step={spec.integer ? 1 : "any"}
      value={typeof value === "string" ? value : ""}
      onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value)}
      className={`${INPUT_CLASS} max-w-40`}
    />
  );
}

export function SpecField({ spec, value, error, active, choiceCount, onChange, onActivate }: SpecFieldProps) {
  const id = fieldDomId(spec);
  const choices = choicesOf(spec);
  const numbers = numericChoices(spec);
  const range = spec.type === "numeric" && (spec.min !== undefined || spec.max !== undefined) ? ` (${spec.min ?? "−∞"} to ${spec.max ?? "∞"})` : "";
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div
      id={id}
      tabIndex={-1}
      role="group"
      aria-labelledby={`${id}-label`}
      data-testid="annotate-field"
      data-spec={spec.name}
      data-active={active || undefined}
      onFocusCapture={onActivate}
      className={`space-y-1.5 rounded-lg border px-3 py-2.5 outline-none ${active ? "border-brand-300 bg-brand-50/40 ring-2 ring-brand-500/20" : "border-transparent"}`}
    >
      <div id={`${id}-label`} className="text-sm font-medium text-zinc-800">
        {spec.name}
        {spec.required ? (
          <span className="ml-1 text-red-600" aria-label="required">
            *
          </span>
        ) : (
          <span className="ml-1.5 text-xs font-normal text-zinc-400">optional</span>
        )}
        <span className="font-normal text-zinc-500">{range}</span>
      </div>
      {spec.description && <p className="text-xs text-zinc-500">{spec.description}</p>}
      {spec.type === "preferred_choice" ? (
        <PreferencePicker labelId={`${id}-label`} errorId={errorId} value={value} choiceCount={choiceCount} onChange={onChange} />
      ) : choices ? (
        <Segmented
          variant="choices"
          aria-labelledby={`${id}-label`}
          aria-describedby={errorId}
          options={choices.filter(isChoice).map((choice, i) => ({
            value: choice,
            label: (
              <>
                {i < 9 && <Kbd>{i + 1}</Kbd>}
                {choiceLabel(choice)}
              </>
            ),
          }))}
          value={isChoice(value) ? value : undefined}
          onChange={(choice) => onChange(value === choice ? undefined : choice)}
        />
      ) : spec.type === "numeric" ? (
        <div className="flex flex-wrap items-center gap-2">
          {numbers && (
            <Segmented
              variant="choices"
              aria-labelledby={`${id}-label`}
              aria-describedby={errorId}
              options={numbers.map((n) => ({ value: n, label: Number(n) >= 1 && Number(n) <= 9 ? <><Kbd>{n}</Kbd>{n}</> : n }))}
              value={typeof value === "string" && numbers.includes(value) ? value : undefined}
              onChange={(n) => onChange(value === n ? undefined : n)}
            />
          )}
          {/* A whole-number range is all buttons; a decimal one keeps its input for values between them. */}
          {!(numbers && spec.integer) && <NumberInput spec={spec} value={value} error={error} errorId={errorId} labelId={`${id}-label`} onChange={onChange} />}
        </div>
      ) : (
        <textarea
          id={inputDomId(spec)}
          aria-labelledby={`${id}-label`}
          aria-describedby={errorId}
          aria-invalid={error ? true : undefined}
          rows={spec.type === "corrected_reply" ? 6 : 2}
          maxLength={"max_length" in spec ? spec.max_length : undefined}
          value={typeof value === "string" ? value : ""}
          onChange={(e) => onChange(e.target.value)}
          className={INPUT_CLASS}
        />
      )}
      {error && (
        <p id={errorId} role="alert" className="text-xs text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}
