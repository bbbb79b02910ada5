import { badRequest } from "@/lib/contract/errors";
import type { AnnotationState } from "./item-schemas";

// An annotator's progress on an item (spec §3, docs/contract.md "Annotation queues"), per annotator:
//   none        → in_progress | completed | skipped
//   in_progress → completed | skipped
//   the current state again → a 200 that changes nothing
//   anything else (leaving completed or skipped, back to in_progress) → 400.
// Completed and skipped are final for that annotator; other annotators still work on the item.

export type Transition = "write" | "no-op";

export function checkTransition(current: AnnotationState | null, requested: AnnotationState): Transition {
  if (current === requested) return "no-op";
  if (current === null || current === "in_progress") return "write";
  throw badRequest(`Invalid state transition from '${current}' to '${requested}': '${current}' is final for an annotator.`);
}
