import { describe, expect, it } from "vitest";
import { callToExample } from "./call-to-example";

describe("callToExample", () => {
  it("turns a recorded call into an example ending with its answer", () => {
    const messages = [{ role: "user", content: "hi" }];
    expect(callToExample({ messages, output: { role: "assistant", content: "hello", refusal: null } })).toEqual({ messages: [...messages, { role: "assistant", content: "hello" }] });
    expect(callToExample({ messages, output: null })).toBeNull();
  });
});
