import { describe, expect, it } from "vitest";
import { parseJsonBody, replaceNonStandardLiterals } from "@/lib/http/json";

describe("non-standard JSON literals", () => {
  it("become null outside strings only", () => {
    expect(replaceNonStandardLiterals('{"a": NaN, "b": [Infinity, -Infinity], "c": "NaN Infinity", "d": "\\"NaN"}')).toBe(
      '{"a": null, "b": [null, null], "c": "NaN Infinity", "d": "\\"NaN"}',
    );
    expect(parseJsonBody('{"reward": NaN, "x": -1.5e-3}', true)).toEqual({ reward: null, x: -0.0015 });
  });

  it("are a json_invalid error where not accepted", () => {
    expect(() => parseJsonBody('{"a": NaN}', false)).toThrow(expect.objectContaining({ issues: [expect.objectContaining({ type: "json_invalid" })] }));
  });
});
