import { describe, expect, it } from "vitest";
import { fromStoredOutput, toStoredOutput } from "@/lib/call-log/stored-output";

const utf8 = (text: string) => [...Buffer.from(text, "utf8")];
const entry = (token: string, bytes: unknown = utf8(token), top: unknown[] = []) => ({ token, logprob: -0.123456789012345, bytes, top_logprobs: top });
const completion = (content: unknown[]) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  choices: [
    { index: 0, message: { role: "assistant", content: "x" }, logprobs: { content }, finish_reason: "length" },
    { index: 1, message: { role: "assistant", content: "y" }, logprobs: null, finish_reason: "stop" },
  ],
  usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
});
/** The stored form as the database gives it back: plain JSON. */
const roundTrip = (output: unknown) => fromStoredOutput(JSON.parse(JSON.stringify(toStoredOutput(output))));

describe("a recorded response as stored", () => {
  it("leaves out the bytes that are their token's UTF-8, in entries and their alternatives", () => {
    const output = completion([entry("token_id:42", undefined, [entry("token_id:7"), entry("é")]), entry(" sea"), entry("→")]);
    const stored = toStoredOutput(output) as ReturnType<typeof completion>;
    const entries = stored.choices[0].logprobs!.content as Record<string, unknown>[];
    expect(entries.map((e) => "bytes" in e)).toEqual([false, false, false]);
    expect((entries[0].top_logprobs as Record<string, unknown>[]).map((e) => "bytes" in e)).toEqual([false, false]);
    expect(entries[0]).toEqual({ token: "token_id:42", logprob: -0.123456789012345, top_logprobs: [{ token: "token_id:7", logprob: -0.123456789012345, top_logprobs: [] }, { token: "é", logprob: -0.123456789012345, top_logprobs: [] }] });
    expect(roundTrip(output)).toEqual(output);
  });

  it("keeps bytes that differ from the token's UTF-8 (a token-id entry's own, part of a character), and null", () => {
    const tokenId = entry("token_id:116", [116]);
    const partial = entry("\ufffd", [0xe2, 0x86]);
    const sameLength = entry("ab", [97, 99]);
    const nulled = entry("a", null);
    const output = completion([tokenId, partial, sameLength, nulled]);
    const stored = toStoredOutput(output) as ReturnType<typeof completion>;
    expect((stored.choices[0].logprobs!.content as Record<string, unknown>[]).map((e) => e.bytes)).toEqual([[116], [0xe2, 0x86], [97, 99], null]);
    expect(roundTrip(output)).toEqual(output);
  });

  it("reads an entry that had no bytes back with null", () => {
    const { bytes: _, ...withoutBytes } = entry("a");
    expect(roundTrip(completion([withoutBytes]))).toEqual(completion([{ ...withoutBytes, bytes: null }]));
  });

  it("stores anything not shaped like a completion as it is", () => {
    for (const output of [null, "text", [1, 2], { choices: "no" }, { choices: [null, { logprobs: { content: [1, { token: 3 }] } }] }]) {
      expect(toStoredOutput(output)).toEqual(output);
      expect(fromStoredOutput(output)).toEqual(output);
    }
  });
});
