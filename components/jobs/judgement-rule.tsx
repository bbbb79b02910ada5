"use client";

import type { AnnotationSpec } from "@/components/calls/queries";
import { CheckboxLabel, Field, SelectField } from "@/components/ui/field";
import { RULE_OPS, type RuleBody } from "@/lib/training/from-judgement/schemas";

// The rule that selects judged calls, on one numeric, boolean or categorical spec: a comparison,
// true/false, or the options that pass. Controlled; the text inputs are kept as typed.

export interface RuleDraft {
  spec: string;
  op: (typeof RULE_OPS)[number];
  number: string;
  flag: "true" | "false";
  options: string[];
}

export const EMPTY_RULE: RuleDraft = { spec: "", op: ">=", number: "", flag: "true", options: [] };

export const RULE_TYPES = ["numeric", "boolean", "categorical"];

/** The API's rule for a draft, or a message saying what is missing; null without a spec. */
export function ruleBody(draft: RuleDraft, spec: AnnotationSpec | undefined): RuleBody | string | null {
  if (!draft.spec || !spec) return null;
  if (spec.type === "numeric") {
    const n = Number(draft.number);
    return draft.number.trim() && Number.isFinite(n) ? { spec: spec.name, op: draft.op, value: n } : "A number to compare with.";
  }
  if (spec.type === "boolean") return { spec: spec.name, value: draft.flag === "true" };
  return draft.options.length ? { spec: spec.name, in: draft.options } : "Pick the options that pass.";
}

export function RuleFields({ specs, value, onChange, error }: { specs: AnnotationSpec[]; value: RuleDraft; onChange: (rule: RuleDraft) => void; error?: string }) {
  const spec = specs.find((s) => s.name === value.spec);
  return (
    <fieldset className="space-y-2">
      <legend className="sr-only">Rule</legend>
      <div className="grid grid-cols-3 items-end gap-3">
        <SelectField label="Rule on" value={value.spec} onChange={(e) => onChange({ ...EMPTY_RULE, spec: e.target.value })} hint="Calls whose annotation passes">
          <option value="">No rule</option>
          {specs
            .filter((s) => RULE_TYPES.includes(s.type))
            .map((s) => (
              <option key={s.name} value={s.name}>
                {s.name} ({s.type})
              </option>
            ))}
        </SelectField>
        {spec?.type === "numeric" && (
          <>
            <SelectField label="Comparison" value={value.op} onChange={(e) => onChange({ ...value, op: e.target.value as RuleDraft["op"] })}>
              {RULE_OPS.map((op) => (
                <option key={op} value={op}>
                  {op.replace(">=", "≥").replace("<=", "≤")}
                </option>
              ))}
            </SelectField>
            <Field label="Value" value={value.number} onChange={(e) => onChange({ ...value, number: e.target.value })} inputMode="decimal" error={error} />
          </>
        )}
        {spec?.type === "boolean" && (
          <SelectField label="Is" value={value.flag} onChange={(e) => onChange({ ...value, flag: e.target.value as RuleDraft["flag"] })}>
            <option value="true">true</option>
            <option value="false">false</option>
          </SelectField>
        )}
      </div>
      {spec?.type === "categorical" && "options" in spec && (
        <div className="flex flex-wrap gap-3" role="group" aria-label="Options that pass">
          {spec.options.map((option) => (
            <CheckboxLabel
              key={option}
              label={option}
              checked={value.options.includes(option)}
              onChange={(on) => onChange({ ...value, options: on ? [...value.options, option] : value.options.filter((o) => o !== option) })}
            />
          ))}
          {error && <p className="text-xs text-red-600">{error}</p>}
        </div>
      )}
    </fieldset>
  );
}
