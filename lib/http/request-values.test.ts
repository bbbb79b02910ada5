import { describe, expect, it } from "vitest";
import { checkRequestValues, MAX_NESTING_DEPTH } from "@/lib/http/request-values";

const issuesOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as { issues: unknown }).issues;
  }
  throw new Error("expected a validation error");
};

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

describe("request values", () => {
  it("drop null object fields at every depth in JSON bodies, keep array elements", () => {
    expect(checkRequestValues("body", { a: null, b: { c: null, d: 1 }, e: [null, { f: null }] }, { dropNulls: true })).toEqual({
      b: { d: 1 },
      e: [null, {}],
    });
    expect(checkRequestValues("query", { a: "x" })).toEqual({ a: "x" });
    const body = { id: null, payload: { value: null, nested: { n: null } }, query: { $literal: null } };
    expect(checkRequestValues("body", body, { dropNulls: true, keepNullsIn: ["payload", "query"] })).toEqual({
      payload: { value: null, nested: { n: null } },
      query: { $literal: null },
    });
  });

  it("refuse NUL and lone surrogates in values and keys, at their location", () => {
    expect(issuesOf(() => checkRequestValues("query", { model: "a\0" }))).toEqual([
      { loc: ["query", "model"], msg: "String must not contain NUL characters (U+0000).", type: "string_unicode" },
    ]);
    expect(issuesOf(() => checkRequestValues("body", { messages: [{ content: "x\ud800" }] }))).toEqual([
      { loc: ["body", "messages", "0", "content"], msg: expect.stringContaining("lone UTF-16 surrogate"), type: "string_unicode" },
    ]);
    expect(issuesOf(() => checkRequestValues("body", { ["k\0"]: 1 }))).toEqual([expect.objectContaining({ loc: ["body", "k\0"] })]);
    expect(issuesOf(() => checkRequestValues("body", { file: new File(["x"], "a\0.jsonl") }))).toEqual([
      expect.objectContaining({ loc: ["body", "file", "filename"] }),
    ]);
    expect(checkRequestValues("body", { emoji: "👍", text: "ok" })).toEqual({ emoji: "👍", text: "ok" });
  });

  it("bound nesting without overflowing the stack", () => {
    expect(() => checkRequestValues("body", nested(MAX_NESTING_DEPTH))).not.toThrow();
    expect(issuesOf(() => checkRequestValues("body", nested(MAX_NESTING_DEPTH + 1)))).toEqual([
      { loc: ["body"], msg: `Nesting deeper than ${MAX_NESTING_DEPTH} levels of arrays and objects.`, type: "too_deep" },
    ]);
    expect(issuesOf(() => checkRequestValues("body", JSON.parse("[".repeat(100_000) + "]".repeat(100_000))))).toEqual([
      expect.objectContaining({ type: "too_deep" }),
    ]);
  });
});
