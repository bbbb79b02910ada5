"use client";

import { Kbd } from "@/components/playground/kbd";
import { Segmented } from "@/components/ui/segmented";
import { isPreference, type FieldValue, type PreferenceInput } from "@/lib/client/annotation-form";

// A preferred-choice field: which answer of the call is better, and which it is better than. With
// two answers one pick says both; with more, a second row picks the answer it is preferred over
// (the digit keys do the same: the first digit the preferred answer, the next the other).

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
      <Segmented
        variant="choices"
        aria-labelledby={labelId}
        aria-label="Preferred answer"
        options={indexes.map((i) => ({
          value: i,
          label: (
            <>
              {i < 9 && <Kbd>{i + 1}</Kbd>}
              Choice {i + 1}
            </>
          ),
        }))}
        value={current?.preferred}
        onChange={choose}
      />
      {choiceCount > 2 && (
        <div className="flex flex-wrap items-center gap-1.5">
          <span className="text-xs text-zinc-500">over</span>
          <Segmented
            variant="choices"
            aria-label="Preferred over"
            options={indexes.map((i) => ({ value: i, label: `Choice ${i + 1}`, disabled: !current || current.preferred === i }))}
            value={current?.over}
            onChange={(over) => current && onChange({ preferred: current.preferred, over })}
          />
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
