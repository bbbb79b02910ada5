import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, json } from "./http";
import { createTestUser, type TestUser } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";

// Structured outputs the embedded engine cannot compile are the request's 400, naming the field
// (never a 500, and never an SSE stream that fails later); bounds on their size and nesting keep
// llama.cpp's synchronous grammar parser from stalling or crashing the engine thread.

let fixture: InferenceFixture;
let user: TestUser;
beforeAll(async () => {
  fixture = installInferenceModels();
  user = await createTestUser();
});
afterAll(() => fixture.remove());

const messages = [{ role: "user", content: "Say something." }];
const post = (body: Record<string, unknown>) => api("POST", "/v1/chat/completions", { bearer: user.key, body: { messages, model: "test/frozen", max_tokens: 4, ...body } });
const nested = (depth: number, inner: string) => `${"(".repeat(depth)}${inner}${")".repeat(depth)}`;
const schema = (s: object) => ({ response_format: { type: "json_schema", json_schema: { name: "answer", schema: s } } });

describe("structured outputs the engine cannot compile", () => {
  it.each([
    ["a GBNF syntax error", { structured_outputs: { grammar: "root ::= (" } }, /^structured_outputs\.grammar: llama\.cpp cannot parse this GBNF grammar/],
    ["a grammar without root", { structured_outputs: { grammar: 'answer ::= "a"' } }, /^structured_outputs\.grammar: llama\.cpp cannot parse/],
    ["a streamed bad grammar", { structured_outputs: { grammar: "root ::= (" }, stream: true }, /^structured_outputs\.grammar: /],
    ["a regex repeated a million times", { structured_outputs: { regex: "a{1000000}" } }, /^structured_outputs\.regex cannot be used: a repetition count over 2000/],
    ["a schema of an unknown type", { structured_outputs: { json: { type: "nonsense" } } }, /^structured_outputs\.json\.type: must be one of/],
    ["a schema keyword the grammar cannot honour", schema({ type: "object", properties: { age: { type: "integer", minimum: 0 } } }), /^response_format\.json_schema\.schema\.properties\.age\.minimum: 'minimum' is not supported/],
    ["a dangling $ref", schema({ type: "array", items: { $ref: "#/$defs/item" } }), /^response_format\.json_schema\.schema\.items\.\$ref: '#\/\$defs\/item' names no definition/],
    ["a schema llama.cpp cannot parse the grammar of", schema({ type: "string", minLength: 1000, maxLength: 2000 }), /^response_format\.json_schema\.schema: llama\.cpp cannot parse the grammar this schema compiles to/],
  ])("%s is a 400 naming the field", async (_, body, detail) => {
    const { status, body: out } = await json(post(body));
    expect(status, JSON.stringify(out)).toBe(400);
    expect(out.detail).toMatch(detail);
  });

  it.each([
    ["a grammar over 32 KiB", { structured_outputs: { grammar: `root ::= ${Array.from({ length: 4000 }, (_, i) => `"w${i}"`).join(" | ")}` } }, /^structured_outputs\.grammar is \d+ characters; the limit is 32768\.$/],
    ["a choice list over 32 KiB", { structured_outputs: { choice: Array.from({ length: 4000 }, (_, i) => `choice-${i}`) } }, /^structured_outputs\.choice translates to a grammar of \d+ characters; the limit is 32768\.$/],
    ["a grammar nested 3,000 deep", { structured_outputs: { grammar: `root ::= ${nested(3000, '"a"')}` } }, /^structured_outputs\.grammar nests groups deeper than 64 levels\.$/],
    ["a regex nested 3,000 deep", { structured_outputs: { regex: nested(3000, "a") } }, /^structured_outputs\.regex cannot be used: groups nested deeper than 64 levels/],
  ])("%s is a 400 naming the bound", async (_, body, detail) => {
    const { status, body: out } = await json(post(body));
    expect(status, JSON.stringify(out)).toBe(400);
    expect(out.detail).toMatch(detail);
  });

  it("leaves the engine serving: a valid grammar still constrains the next completion", async () => {
    const { status, body } = await json(post({ structured_outputs: { grammar: 'root ::= "ok" [0-9]' }, seed: 3 }));
    expect(status).toBe(200);
    expect(body.choices[0].message.content).toMatch(/^ok[0-9]$/);
  });
});
