import { describe, expect, it } from "vitest";
import { combineValues, latestPerAnnotator, newestText, type AnnotationRow } from "./combine-annotations";
import { passesRule } from "./judgement-rule";
import type { ResolvedRule } from "./schemas";

const row = (id: string, userId: string, value: unknown, at: number, extra: Partial<AnnotationRow> = {}): AnnotationRow => ({
  id, callId: "c", choice: null, spec: "score", value, userId, createdAt: new Date(at), ...extra,
});

describe("combining annotations", () => {
  it("keeps each annotator's newest row per call, choice and spec", () => {
    const rows = [row("1", "ann", 5, 1), row("2", "ann", 2, 2), row("3", "bob", 4, 1), row("4", "ann", 1, 0, { choice: 1 }), row("5", "ann", 3, 2, { spec: "ok" })];
    expect(latestPerAnnotator(rows).map((r) => r.id).sort()).toEqual(["2", "3", "4", "5"]);
    // Same instant: the larger id (UUIDv7 order) is the newer.
    expect(latestPerAnnotator([row("b", "ann", 1, 5), row("a", "ann", 2, 5)]).map((r) => r.id)).toEqual(["b"]);
  });

  it("averages numbers, takes the majority of booleans and options, and calls an even split a tie", () => {
    expect(combineValues("numeric", [5, 3, "x"])).toEqual({ value: 4 });
    expect(combineValues("numeric", ["x"])).toBeNull();
    expect(combineValues("boolean", [true, true, false])).toEqual({ value: true });
    expect(combineValues("boolean", [true, false])).toEqual({ tie: true });
    expect(combineValues("categorical", ["calm", "rude", "calm"])).toEqual({ value: "calm" });
    expect(combineValues("categorical", ["calm", "rude"])).toEqual({ tie: true });
    expect(combineValues("categorical", [])).toBeNull();
  });

  it("a corrected reply is the newest annotator's", () => {
    expect(newestText([row("1", "a", "old", 1), row("2", "b", "new", 2), row("3", "c", 7, 3)])).toBe("new");
    expect(newestText([])).toBeNull();
  });
});

describe("rules", () => {
  const numeric = (op: ResolvedRule["op"], value: number): ResolvedRule => ({ spec: "s", type: "numeric", op, value, text: "" });
  it("compare numbers with each operator", () => {
    expect([3, 4, 5].map((v) => passesRule(numeric(">=", 4), v))).toEqual([false, true, true]);
    expect([3, 4, 5].map((v) => passesRule(numeric(">", 4), v))).toEqual([false, false, true]);
    expect([3, 4, 5].map((v) => passesRule(numeric("=", 4), v))).toEqual([false, true, false]);
    expect([3, 4, 5].map((v) => passesRule(numeric("<=", 4), v))).toEqual([true, true, false]);
    expect([3, 4, 5].map((v) => passesRule(numeric("<", 4), v))).toEqual([true, false, false]);
  });
  it("match booleans and options exactly", () => {
    expect(passesRule({ spec: "s", type: "boolean", value: false, text: "" }, false)).toBe(true);
    expect(passesRule({ spec: "s", type: "boolean", value: false, text: "" }, true)).toBe(false);
    const tone: ResolvedRule = { spec: "s", type: "categorical", in: ["calm", "warm"], text: "" };
    expect(["calm", "rude"].map((v) => passesRule(tone, v))).toEqual([true, false]);
  });
});
