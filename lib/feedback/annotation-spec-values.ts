import type { SpecDefinition } from "./annotation-spec-schemas";

// Whether an annotation's `value` satisfies its spec; the problem in words when it does not. A
// preferred choice's shape is checked here; its indexes against the call in preferred-choice.ts.

/** A call's n is at most 128, so a choice index is at most 127. */
export const MAX_CHOICE_INDEX = 127;

export interface Preference {
  preferred: number;
  over: number;
}

const isChoiceIndex = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_CHOICE_INDEX;

function preferenceProblem(value: unknown): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "must be an object {preferred, over} of two choice indexes";
  const extra = Object.keys(value).filter((key) => key !== "preferred" && key !== "over");
  if (extra.length > 0) return `must have only the keys preferred and over, not ${extra.join(", ")}`;
  const { preferred, over } = value as Record<string, unknown>;
  if (!isChoiceIndex(preferred)) return `preferred must be a choice index (a whole number from 0 to ${MAX_CHOICE_INDEX})`;
  if (!isChoiceIndex(over)) return `over must be a choice index (a whole number from 0 to ${MAX_CHOICE_INDEX})`;
  return preferred === over ? "preferred and over must be two different choices" : null;
}

export function specValueProblem(spec: SpecDefinition, value: unknown): string | null {
  switch (spec.type) {
    case "numeric":
      if (typeof value !== "number") return "must be a number";
      if (spec.integer && !Number.isInteger(value)) return "must be a whole number";
      if (spec.min !== undefined && value < spec.min) return `must be at least ${spec.min}`;
      if (spec.max !== undefined && value > spec.max) return `must be at most ${spec.max}`;
      return null;
    case "boolean":
      return typeof value === "boolean" ? null : "must be true or false";
    case "categorical":
      return typeof value === "string" && spec.options.includes(value) ? null : `must be one of ${spec.options.map((o) => JSON.stringify(o)).join(", ")}`;
    case "text":
    case "corrected_reply": {
      if (typeof value !== "string") return "must be a string";
      const length = [...value].length;
      if (length === 0) return "must not be empty";
      return length > spec.max_length ? `must be at most ${spec.max_length} characters` : null;
    }
    case "preferred_choice":
      return preferenceProblem(value);
  }
}
