import { describe, expect, it } from "vitest";
import { describeApiError } from "@/lib/client/api-fetch";

describe("describeApiError", () => {
  it("uses a string detail as the message", () => {
    const error = describeApiError(409, { detail: "Team 'x' exists." });
    expect([error.status, error.message, error.fields]).toEqual([409, "Team 'x' exists.", {}]);
  });

  it("turns a 422 detail list into one message and per-field messages", () => {
    const error = describeApiError(422, {
      detail: [
        { loc: ["body", "name"], msg: "must be 1–128 of A-Za-z0-9._- starting with a letter or digit", type: "string_pattern_mismatch" },
        { loc: ["body", "password"], msg: "String should have at least 8 characters", type: "too_short" },
      ],
    });
    expect(error.message).toBe("name: must be 1–128 of A-Za-z0-9._- starting with a letter or digit; password: String should have at least 8 characters");
    expect(error.fields).toEqual({
      name: "Must be 1–128 of A-Za-z0-9._- starting with a letter or digit",
      password: "String should have at least 8 characters",
    });
  });

  it("explains a status without a body", () => {
    expect(describeApiError(401, undefined).message).toMatch(/sign in again/);
    expect(describeApiError(502, "<html>").message).toMatch(/502/);
  });
});
