import { describe, expect, it } from "vitest";
import { z } from "zod";
import { JsonlError, jsonlErrorAt, parseJsonl } from "./jsonl";

const format = { schema: z.object({ n: z.number() }), line: '{"n": 1}', items: "numbers", max: 2, overMax: "send fewer" };
const errorOf = (text: string) => {
  try {
    parseJsonl(text, format);
  } catch (error) {
    if (error instanceof JsonlError) return { line: error.line, message: error.message };
  }
  throw new Error("no JsonlError");
};

describe("parseJsonl", () => {
  it("reads one object per line, skipping blank lines and surrounding spaces", () => {
    expect(parseJsonl('{"n": 1}\n\n  {"n": 2}  \r\n', format)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("names the first bad line and what is wrong with it", () => {
    expect(errorOf('{"n": 1}\n\n{"n": ')).toEqual({ line: 3, message: 'not valid JSON (each line must be one {"n": 1} object)' });
    expect(errorOf('{"n": "one"}')).toEqual({ line: 1, message: "n: Invalid input: expected number, received string" });
    expect(errorOf('{"n": 1}\n{"n": 2}\n{"n": 3}')).toEqual({ line: 3, message: "more than 2 numbers; send fewer" });
    expect(errorOf(" \n\n")).toEqual({ line: null, message: 'no numbers (expected one {"n": 1} object per line)' });
  });

  it("words the place of an error for its caller", () => {
    expect(jsonlErrorAt("file a.jsonl", new JsonlError(3, "bad"))).toBe("file a.jsonl, line 3: bad");
    expect(jsonlErrorAt("file a.jsonl", new JsonlError(null, "empty"))).toBe("file a.jsonl: empty");
  });
});
