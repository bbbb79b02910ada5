import { describe, expect, it } from "vitest";
import { checkerProblem, checkerSchema, compileChecker } from "./checker-config";
import { compileJsonSchema, jsonSchemaValid } from "./json-schema-valid";
import { lengthInRange } from "./length-in-range";
import { exactMatch, lastNumber, numericMatch } from "./match-reference";
import { regexMatch } from "./regex-match";

describe("exactMatch", () => {
  it("ignores surrounding whitespace, and case when asked", () => {
    expect(exactMatch("  Paris\n", "Paris", { caseSensitive: true })).toBe(1);
    expect(exactMatch("paris", "Paris", { caseSensitive: true })).toBe(0);
    expect(exactMatch("paris", "Paris", { caseSensitive: false })).toBe(1);
    expect(exactMatch("Paris.", "Paris", { caseSensitive: false })).toBe(0);
  });
});

describe("numericMatch", () => {
  it("reads the last number of each text", () => {
    expect(lastNumber("3 + 4 = 7.")).toBe(7);
    expect(lastNumber("about 1,250 people")).toBe(1250);
    expect(lastNumber("-0.5")).toBe(-0.5);
    expect(lastNumber("none")).toBeNull();
  });
  it("compares within the tolerance", () => {
    expect(numericMatch("The answer is 12", "12", { tolerance: 0 })).toBe(1);
    expect(numericMatch("The answer is 12.", "13", { tolerance: 0 })).toBe(0);
    expect(numericMatch("3.14", "3.1416", { tolerance: 0.01 })).toBe(1);
    expect(numericMatch("no number", "3", { tolerance: 1 })).toBe(0);
    expect(numericMatch("3", "no number", { tolerance: 1 })).toBe(0);
  });
});

describe("regexMatch", () => {
  it("matches anywhere unless anchored, and a g flag does not carry over between replies", () => {
    expect(regexMatch("it is 42", /\d+/)).toBe(1);
    expect(regexMatch("it is 42", /^\d+$/)).toBe(0);
    const global = /a/g;
    expect(regexMatch("a", global)).toBe(1);
    expect(regexMatch("a", global)).toBe(1);
  });
});

describe("jsonSchemaValid", () => {
  const validate = compileJsonSchema({ type: "object", properties: { n: { type: "integer" } }, required: ["n"] });
  it("parses the reply (fenced or not) and validates it", () => {
    expect(jsonSchemaValid('{"n": 3}', validate)).toBe(1);
    expect(jsonSchemaValid('```json\n{"n": 3}\n```', validate)).toBe(1);
    expect(jsonSchemaValid('{"n": "3"}', validate)).toBe(0);
    expect(jsonSchemaValid("{n: 3}", validate)).toBe(0);
    expect(jsonSchemaValid("", validate)).toBe(0);
  });
});

describe("lengthInRange", () => {
  it("counts code points of the trimmed reply, bounds included", () => {
    expect(lengthInRange(" abc ", { min: 3, max: 3 })).toBe(1);
    expect(lengthInRange("ab", { min: 3, max: 10 })).toBe(0);
    expect(lengthInRange("😀😀", { min: 0, max: 2 })).toBe(1);
    expect(lengthInRange("abcd", { min: 0, max: 3 })).toBe(0);
  });
});

describe("checker configs", () => {
  it("compile to scorers; reference checkers score 0 without a reference", () => {
    const exact = compileChecker(checkerSchema.parse({ type: "exact_match" }));
    expect(exact("7", "7")).toBe(1);
    expect(exact("7", undefined)).toBe(0);
    expect(compileChecker(checkerSchema.parse({ type: "numeric_match" }))("= 7", "7")).toBe(1);
    expect(compileChecker(checkerSchema.parse({ type: "regex", pattern: "^yes", flags: "i" }))("Yes!", undefined)).toBe(1);
    expect(compileChecker(checkerSchema.parse({ type: "length", max: 2 }))("abc", undefined)).toBe(0);
  });
  it("report what their shape cannot: a bad pattern, an unreadable schema, min above max", () => {
    expect(checkerProblem(checkerSchema.parse({ type: "regex", pattern: "(" }))?.field).toBe("pattern");
    expect(checkerProblem(checkerSchema.parse({ type: "json_schema", schema: { type: "bogus" } }))?.field).toBe("schema");
    expect(checkerProblem(checkerSchema.parse({ type: "length", min: 5, max: 2 }))?.field).toBe("max");
    expect(checkerProblem(checkerSchema.parse({ type: "length", max: 2 }))).toBeNull();
  });
});
