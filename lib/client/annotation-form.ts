import type { QueueSpecDto } from "@/lib/queues/queue-schemas";

// The annotator's form (components/annotate) as data: what each input holds (text as typed, a
// choice as chosen), how a digit key picks a value for a spec, and the values as the submit route
// takes them (checked here first, so an annotator sees a mistake next to its field).

/** A preferred choice as it is being picked: `over` is missing until the second choice is picked. */
export interface PreferenceInput {
  preferred: number;
  over?: number;
}
export type FieldValue = string | boolean | PreferenceInput | undefined;
export interface FormState {
  values: Record<string, FieldValue>;
  note: string;
}

export const isPreference = (value: unknown): value is PreferenceInput =>
  typeof value === "object" && value !== null && typeof (value as PreferenceInput).preferred === "number";

/** A stored value (one's earlier annotation) as the input holds it. */
const asInput = (value: unknown): FieldValue =>
  typeof value === "boolean" || typeof value === "string" ? value : typeof value === "number" ? String(value) : isPreference(value) ? { preferred: value.preferred, over: value.over } : undefined;

/**
 * The form an item opens with: one's submitted values (editing via Back), else empty — except a
 * corrected reply, which starts as the model's answer for the annotator to fix.
 */
export function initialForm(specs: QueueSpecDto[], mine: { values: Record<string, unknown>; note: string | null }, answer: string): FormState {
  const values: Record<string, FieldValue> = {};
  for (const spec of specs) {
    const stored = asInput(mine.values[spec.name]);
    values[spec.name] = stored ?? (spec.type === "corrected_reply" ? answer : undefined);
  }
  return { values, note: mine.note ?? "" };
}

/** A spec's choices, shown as buttons (digit keys 1–9 pick the first nine); null for typed values. */
export function choicesOf(spec: QueueSpecDto): FieldValue[] | null {
  if (spec.type === "boolean") return [true, false];
  if (spec.type === "categorical") return spec.options;
  return null;
}

/** A numeric spec's whole numbers as buttons, where its range is small (at most 10 of them, like
 *  1–5 or 0–9); null for an open or wide range, which is typed. Digit keys pick 1–9 either way. */
export function numericChoices(spec: QueueSpecDto): string[] | null {
  if (spec.type !== "numeric" || spec.min === undefined || spec.max === undefined) return null;
  const [low, high] = [Math.ceil(spec.min), Math.floor(spec.max)];
  if (high < low || high - low > 9) return null;
  return Array.from({ length: high - low + 1 }, (_, i) => String(low + i));
}

/**
 * Picking the call's answer `index` for a preferred choice: with two answers the other is the one
 * it is preferred over; with more, the first pick is the preferred answer and the next (another
 * one) what it is preferred over, and a pick after that starts again.
 */
export function pickPreference(current: FieldValue, index: number, choiceCount: number): PreferenceInput | undefined {
  if (index < 0 || index >= choiceCount || choiceCount < 2) return undefined;
  if (choiceCount === 2) return { preferred: index, over: 1 - index };
  if (isPreference(current) && current.over === undefined && current.preferred !== index) return { preferred: current.preferred, over: index };
  return { preferred: index };
}

/** The value digit `d` (1–9) gives a spec: a choice, a whole number in a numeric spec's range, or
 *  for a preferred choice the call's d-th answer (`current` and the call's `choiceCount` matter). */
export function valueForDigit(spec: QueueSpecDto, digit: number, call: { current?: FieldValue; choiceCount: number } = { choiceCount: 0 }): FieldValue {
  if (spec.type === "preferred_choice") return pickPreference(call.current, digit - 1, call.choiceCount);
  const choices = choicesOf(spec);
  if (choices) return choices[digit - 1];
  if (spec.type === "numeric") {
    const inRange = (spec.min === undefined || digit >= spec.min) && (spec.max === undefined || digit <= spec.max);
    return inRange ? String(digit) : undefined;
  }
  return undefined;
}

const isBlank = (value: FieldValue) => value === undefined || (typeof value === "string" && value.trim() === "");

/** The submit body's values, or the message for each field that is wrong. */
export function toSubmission(specs: QueueSpecDto[], form: FormState): { values: Record<string, unknown> } | { errors: Record<string, string> } {
  const values: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const spec of specs) {
    const value = form.values[spec.name];
    if (isBlank(value)) {
      if (spec.required) errors[spec.name] = "Required";
      continue;
    }
    if (spec.type === "numeric") {
      const n = Number(value);
      if (!Number.isFinite(n)) errors[spec.name] = "A number";
      else if (spec.integer && !Number.isInteger(n)) errors[spec.name] = "A whole number";
      else if ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) errors[spec.name] = `From ${spec.min ?? "−∞"} to ${spec.max ?? "∞"}`;
      else values[spec.name] = n;
    } else if (isPreference(value)) {
      if (value.over === undefined) errors[spec.name] = "Pick the answer it is preferred over";
      else values[spec.name] = { preferred: value.preferred, over: value.over };
    } else values[spec.name] = value;
  }
  return Object.keys(errors).length > 0 ? { errors } : { values };
}
