import { NAME_PATTERN } from "@/lib/auth/names";
import { invalid } from "@/lib/contract/errors";
import { isOneEmoji, reactionPayload } from "./emoji";

// The kinds of feedback (docs/feedback.md), told apart by `feedback_type`, and the payload rules
// that need nothing but the request. `wandb.` types are reserved: the ones below, nothing else.

export const REACTION_TYPE = "wandb.reaction.1";
export const NOTE_TYPE = "wandb.note.1";
export const ANNOTATION_PREFIX = "wandb.annotation.";
export const RUNNABLE_PREFIX = "wandb.runnable.";
export const MAX_NOTE_LENGTH = 1024;

export type FeedbackKind =
  | { kind: "reaction" }
  | { kind: "note" }
  | { kind: "annotation"; specName: string }
  | { kind: "runnable"; name: string }
  | { kind: "custom" };

const TYPE_LOC = ["body", "feedback_type"];

export function feedbackKind(type: string): FeedbackKind {
  if (type === REACTION_TYPE) return { kind: "reaction" };
  if (type === NOTE_TYPE) return { kind: "note" };
  if (type.startsWith(ANNOTATION_PREFIX)) {
    const specName = type.slice(ANNOTATION_PREFIX.length);
    if (!NAME_PATTERN.test(specName)) throw invalid(TYPE_LOC, "must be wandb.annotation.<spec name>, the name of an annotation spec of the project");
    return { kind: "annotation", specName };
  }
  if (type.startsWith(RUNNABLE_PREFIX)) {
    const name = type.slice(RUNNABLE_PREFIX.length);
    if (!name) throw invalid(TYPE_LOC, "must be wandb.runnable.<name>, the name of its runnable_ref");
    return { kind: "runnable", name };
  }
  if (type.startsWith("wandb.")) {
    throw invalid(TYPE_LOC, `'wandb.' types are reserved: ${REACTION_TYPE}, ${NOTE_TYPE}, ${ANNOTATION_PREFIX}<spec name> and ${RUNNABLE_PREFIX}<name>; use a type of your own`);
  }
  return { kind: "custom" };
}

/** The payload as stored, after the kind's own checks (a reaction gains its aliases). */
export function checkedPayload(kind: FeedbackKind, payload: Record<string, unknown>): Record<string, unknown> {
  switch (kind.kind) {
    case "reaction": {
      const emoji = payload.emoji;
      if (typeof emoji !== "string" || !isOneEmoji(emoji)) throw invalid(["body", "payload", "emoji"], "must be exactly one emoji");
      return reactionPayload(payload, emoji);
    }
    case "note": {
      const note = payload.note;
      const length = typeof note === "string" ? [...note].length : 0;
      if (length < 1 || length > MAX_NOTE_LENGTH) throw invalid(["body", "payload", "note"], `must be a string of 1 to ${MAX_NOTE_LENGTH} characters`);
      return payload;
    }
    case "annotation":
      if (!("value" in payload)) throw invalid(["body", "payload", "value"], "Field required", "missing");
      return payload;
    case "runnable":
      if (!("output" in payload)) throw invalid(["body", "payload", "output"], "Field required", "missing");
      return payload;
    case "custom":
      return payload;
  }
}
