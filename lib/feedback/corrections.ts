// A corrected reply is a correction only where it differs from the model's reply, both trimmed of
// whitespace: the annotator's form starts from the model's reply, so one left as it was (or with
// a stray newline) corrects nothing. Writes leave such a value out, and readers of rows stored
// before that rule (displays, training from judgement, RL references, exports) treat it as unchanged.

/** Whether `value` corrects `reply` (null: the call has no reply, so any text corrects it). */
export function isCorrection(value: unknown, reply: string | null | undefined): value is string {
  return typeof value === "string" && value.trim() !== "" && value.trim() !== (reply ?? "").trim();
}

/** Why a write of an unchanged corrected reply is refused. */
export const UNCHANGED = "is the model's reply (whitespace aside), so it corrects nothing: change it, or leave the corrected reply out";
