import { describe, expect, it } from "vitest";
import { apiFetch, describeApiError } from "@/lib/client/api-fetch";

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

describe("apiFetch bodies", () => {
  it("sends objects as JSON and a FormData as multipart (the browser sets its boundary)", async () => {
    const sent: RequestInit[] = [];
    const original = globalThis.fetch;
    globalThis.fetch = (async (_url: string, init: RequestInit) => {
      sent.push(init);
      return new Response("{}", { status: 200 });
    }) as typeof fetch;
    try {
      await apiFetch("/v1/x", { method: "POST", body: { a: 1 } });
      const form = new FormData();
      form.append("purpose", "fine-tune");
      await apiFetch("/v1/files", { method: "POST", body: form });
    } finally {
      globalThis.fetch = original;
    }
    expect(sent[0]).toMatchObject({ body: '{"a":1}', headers: { "content-type": "application/json" } });
    expect(sent[1].body).toBeInstanceOf(FormData);
    expect(sent[1].headers).toEqual({ accept: "application/json" });
  });
});
