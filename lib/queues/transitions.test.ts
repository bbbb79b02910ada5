import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/contract/errors";
import type { AnnotationState } from "./item-schemas";
import { checkTransition } from "./transitions";

// The whole table: every current state (none included) against every requested one.
const TABLE: [AnnotationState | null, AnnotationState, "write" | "no-op" | 400][] = [
  [null, "in_progress", "write"],
  [null, "completed", "write"],
  [null, "skipped", "write"],
  ["in_progress", "in_progress", "no-op"],
  ["in_progress", "completed", "write"],
  ["in_progress", "skipped", "write"],
  ["completed", "in_progress", 400],
  ["completed", "completed", "no-op"],
  ["completed", "skipped", 400],
  ["skipped", "in_progress", 400],
  ["skipped", "completed", 400],
  ["skipped", "skipped", "no-op"],
];

describe("checkTransition", () => {
  it.each(TABLE)("%s → %s: %s", (current, requested, expected) => {
    if (expected !== 400) return expect(checkTransition(current, requested)).toBe(expected);
    const error = (() => {
      try {
        checkTransition(current, requested);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    expect((error as AppError).message).toBe(`Invalid state transition from '${current}' to '${requested}': '${current}' is final for an annotator.`);
  });
});
