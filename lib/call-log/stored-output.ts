// A recorded call's response as stored: the body as returned, except that a logprob entry's `bytes`
// is left out when it is the UTF-8 of its `token`, as it is for every entry in text form and for
// the alternatives in `token_id:` form (a main entry in that form carries the real token's bytes,
// vLLM's quirk, and keeps them). PostgreSQL parses each jsonb number as a numeric, and these
// arrays are most of a call's numbers once alternatives are asked for: with top_logprobs 5 a
// 107-token call stores 39 KB instead of 68 KB and its insert costs half as much (2.2 against
// 4.5 ms, on the embedded database's event loop). Reading a call puts them back. Bytes that differ
// from the token's UTF-8 (a server that sends a partial character's bytes) are kept, and so is
// `null`; an entry that had no `bytes` at all reads back with `null`.
import { isJsonObject, type JsonObject } from "@/lib/call-log/json-object";

/** Whether `bytes` are exactly the UTF-8 encoding of `token`. */
function isUtf8Of(bytes: readonly unknown[], token: string): boolean {
  if (bytes.length === token.length) {
    // Most tokens are ASCII: one byte per character, compared without encoding.
    let i = 0;
    for (; i < token.length; i++) {
      const code = token.charCodeAt(i);
      if (code > 0x7f) break;
      if (bytes[i] !== code) return false;
    }
    if (i === token.length) return true;
  }
  const encoded = Buffer.from(token, "utf8");
  return encoded.length === bytes.length && encoded.every((byte, i) => bytes[i] === byte);
}

function storedEntry(entry: unknown): unknown {
  if (!isJsonObject(entry) || typeof entry.token !== "string") return entry;
  const { bytes, top_logprobs, ...rest } = entry;
  const stored: JsonObject = rest;
  if (!(Array.isArray(bytes) && isUtf8Of(bytes, entry.token))) stored.bytes = bytes ?? null;
  if (top_logprobs !== undefined) stored.top_logprobs = Array.isArray(top_logprobs) ? top_logprobs.map(storedEntry) : top_logprobs;
  return stored;
}

function restoredEntry(entry: unknown): unknown {
  if (!isJsonObject(entry) || typeof entry.token !== "string") return entry;
  const restored: JsonObject = { ...entry };
  if (!("bytes" in entry)) restored.bytes = [...Buffer.from(entry.token, "utf8")];
  if (Array.isArray(entry.top_logprobs)) restored.top_logprobs = entry.top_logprobs.map(restoredEntry);
  return restored;
}

/** The body with each choice's logprob entries mapped; anything not shaped like a completion as is. */
function mapLogprobEntries(output: unknown, map: (entry: unknown) => unknown): unknown {
  if (!isJsonObject(output) || !Array.isArray(output.choices)) return output;
  return {
    ...output,
    choices: output.choices.map((choice) => {
      if (!isJsonObject(choice) || !isJsonObject(choice.logprobs) || !Array.isArray(choice.logprobs.content)) return choice;
      return { ...choice, logprobs: { ...choice.logprobs, content: choice.logprobs.content.map(map) } };
    }),
  };
}

/** The response as a call stores it. */
export const toStoredOutput = (output: unknown): unknown => mapLogprobEntries(output, storedEntry);

/** The stored response as it was returned. */
export const fromStoredOutput = (output: unknown): unknown => mapLogprobEntries(output, restoredEntry);
