import { describe, expect, it } from "vitest";
import { specDefinitionSchema } from "./annotation-spec-schemas";
import { specValueProblem } from "./annotation-spec-values";
import { preferenceIssues } from "./preferred-choice";

// An annotation's value against its spec, and a preferred choice against its call's choices.

const spec = (definition: Record<string, unknown>) => specDefinitionSchema.parse(definition);

describe("specValueProblem", () => {
  it("checks each type's values", () => {
    expect(specValueProblem(spec({ type: "numeric", min: 1, max: 5, integer: true }), 3)).toBeNull();
    expect(specValueProblem(spec({ type: "numeric", min: 1, max: 5, integer: true }), 3.5)).toBe("must be a whole number");
    expect(specValueProblem(spec({ type: "boolean" }), "yes")).toBe("must be true or false");
    expect(specValueProblem(spec({ type: "categorical", options: ["a", "b"] }), "c")).toBe('must be one of "a", "b"');
    expect(specValueProblem(spec({ type: "corrected_reply" }), "")).toBe("must not be empty");
  });

  it("takes a preferred choice as {preferred, over}: two different whole choice indexes, nothing else", () => {
    const preferred = spec({ type: "preferred_choice" });
    expect(specValueProblem(preferred, { preferred: 1, over: 0 })).toBeNull();
    expect(specValueProblem(preferred, { preferred: 127, over: 3 })).toBeNull();
    expect(specValueProblem(preferred, 1)).toBe("must be an object {preferred, over} of two choice indexes");
    expect(specValueProblem(preferred, [1, 0])).toBe("must be an object {preferred, over} of two choice indexes");
    expect(specValueProblem(preferred, null)).toBe("must be an object {preferred, over} of two choice indexes");
    expect(specValueProblem(preferred, { preferred: 1 })).toMatch(/^over must be a choice index/);
    expect(specValueProblem(preferred, { preferred: -1, over: 0 })).toMatch(/^preferred must be a choice index/);
    expect(specValueProblem(preferred, { preferred: 0.5, over: 0 })).toMatch(/^preferred must be a choice index/);
    expect(specValueProblem(preferred, { preferred: "1", over: 0 })).toMatch(/^preferred must be a choice index/);
    expect(specValueProblem(preferred, { preferred: 128, over: 0 })).toMatch(/^preferred must be a choice index \(a whole number from 0 to 127\)/);
    expect(specValueProblem(preferred, { preferred: 2, over: 2 })).toBe("preferred and over must be two different choices");
    expect(specValueProblem(preferred, { preferred: 1, over: 0, why: "clearer" })).toBe("must have only the keys preferred and over, not why");
  });
});

describe("preferenceIssues", () => {
  const loc = ["body", "payload", "value"];
  it("accepts indexes among the call's choices", () => {
    expect(preferenceIssues({ preferred: 2, over: 0 }, 3, "c", loc)).toEqual([]);
  });

  it("names each index beyond the call's choices at its place", () => {
    expect(preferenceIssues({ preferred: 2, over: 5 }, 2, "c", loc)).toEqual([
      { loc: [...loc, "preferred"], msg: "choice 2 does not exist: the call has 2 choices (0 to 1)", type: "value_error" },
      { loc: [...loc, "over"], msg: "choice 5 does not exist: the call has 2 choices (0 to 1)", type: "value_error" },
    ]);
  });

  it("refuses a call with fewer than two choices (400) and a call that is not recorded (404)", () => {
    expect(() => preferenceIssues({ preferred: 1, over: 0 }, 1, "c", loc)).toThrow(expect.objectContaining({ status: 400, message: "Call 'c' has one choice: a preferred choice needs a call made with n >= 2." }));
    expect(() => preferenceIssues({ preferred: 1, over: 0 }, 0, "c", loc)).toThrow(expect.objectContaining({ status: 400, message: expect.stringContaining("has no choices") }));
    expect(() => preferenceIssues({ preferred: 1, over: 0 }, null, "c", loc)).toThrow(expect.objectContaining({ status: 404 }));
  });
});
