"use client";

import { Kbd } from "@/components/playground/kbd";
import { isPreference, type FieldValue, type PreferenceInput } from "@/lib/client/annotation-form";

// A preferred-choice field: which answer of the call is better, and which it is better than. With
// two answers one pick says both; with more, a second row picks the answer it is preferred over
// (the digit keys do the same: the first digit the preferred answer, the next the other).

const OPTION_CLASS = "inline-flex items-center gap-1.5 rounded-md border px-2.5 py-1.5 text-[13px] font-medium shadow-xs focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-40";
const optionTone = (checked: boolean) => (checked ? "border-brand-400 bg-brand-50 text-brand-800" : "border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-50");

interface PreferencePickerProps {
  labelId: string;
  errorId?: string;
  value: FieldValue;
  choiceCount: number;
  onChange: (value: PreferenceInput | undefined) => void;
}

export function PreferencePicker({ labelId, errorId, value, choiceCount, onChange }: PreferencePickerProps) {
  if (choiceCount < 2) return <p className="text-xs text-zinc-500">This call has one answer: there is nothing to prefer (skip it, or leave this field empty if it is optional).</p>;
  const current = isPreference(value) ? value : undefined;
  const indexes = Array.from({ length: choiceCount }, (_, i) => i);
  const choose = (preferred: number) => {
    if (current?.preferred === preferred) return onChange(undefined);
    if (choiceCount === 2) return onChange({ preferred, over: 1 - preferred });
    onChange({ preferred, over: current?.over === preferred ? undefined : current?.over });
  };
  return (
    <div className="space-y-2" aria-describedby={errorId}>
      <div role="radiogroup" aria-labelledby={labelId} aria-label="Preferred answer" className="flex flex-wrap gap-1.5">
        {indexes.map((i) => (
          <button key={i} type="button" role="radio" aria-checked={current?.preferred === i} onClick={() => choose(i)} className={`${OPTION_CLASS} ${optionTone(current?.preferred === i)}`}>
            {i < 9 && <Kbd>{i + 1}</Kbd>}
            Choice {i + 1}
          </button>
        ))}
      </div>
      {choiceCount > 2 && (
        <div className="flex flex-wrap items-center gap-1.5">
          <span className="text-xs text-zinc-500">over</span>
          <div role="radiogroup" aria-label="Preferred over" className="flex flex-wrap gap-1.5">
            {indexes.map((i) => (
              <button
                key={i}
                type="button"
                role="radio"
                aria-checked={current?.over === i}
                disabled={!current || current.preferred === i}
                onClick={() => current && onChange({ preferred: current.preferred, over: i })}
                className={`${OPTION_CLASS} ${optionTone(current?.over === i)}`}
              >
                Choice {i + 1}
              </button>
            ))}
          </div>
        </div>
      )}
      <p className="text-xs text-zinc-600" data-testid="preference-summary">
        {!current
          ? "Pick the better answer."
          : current.over === undefined
            ? `Choice ${current.preferred + 1} is preferred over… (pick the other answer)`
            : `Choice ${current.preferred + 1} is preferred over choice ${current.over + 1}.`}
      </p>
    </div>
  );
}
