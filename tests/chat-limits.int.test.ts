import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, json } from "./http";
import { createTestUser, type TestUser } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";

// The per-request limits of a chat completion: what the engine thread does for every token (stop
// strings, logit_bias, bad_words) and what a prompt carries (tools) are bounded (422 at the field),
// and token ids must be the model's (400, as vLLM), never a 500 from an empty sampler.

let fixture: InferenceFixture;
let user: TestUser;
beforeAll(async () => {
  fixture = installInferenceModels();
  user = await createTestUser();
});
afterAll(() => fixture.remove());

const messages = [{ role: "user", content: "Say something." }];
const post = (body: Record<string, unknown>) => json(api("POST", "/v1/chat/completions", { bearer: user.key, body: { messages, model: "test/frozen", max_tokens: 2, ...body } }));
const many = <T>(n: number, item: (i: number) => T) => Array.from({ length: n }, (_, i) => item(i));

describe("chat completion limits", () => {
  it.each([
    ["17 stop strings", { stop: many(17, (i) => `s${i}`) }, "stop", "stop may hold at most 16 strings"],
    ["a 257-character stop string", { stop: ["x".repeat(257)] }, "stop.0", "a stop string may be at most 256 characters"],
    ["301 logit_bias entries", { logit_bias: Object.fromEntries(many(301, (i) => [String(i), 1])) }, "logit_bias", "logit_bias may hold at most 300 tokens"],
    ["129 bad words", { bad_words: many(129, (i) => `w${i}`) }, "bad_words", "bad_words may hold at most 128 words"],
    ["129 tools", { tools: many(129, (i) => ({ type: "function", function: { name: `f${i}` } })) }, "tools", "tools may hold at most 128 tools"],
    ["n of 129", { n: 129 }, "n", "Too big: expected number to be <=128"],
    ["a chat template over 64 KiB", { chat_template: "x".repeat(64 * 1024 + 1) }, "chat_template", "a chat template may be at most 65536 characters"],
  ])("%s is 422 at the field", async (_, body, field, msg) => {
    const { status, body: out } = await post(body);
    expect(status, JSON.stringify(out)).toBe(422);
    expect(out.detail.map((d: { loc: unknown[]; msg: string }) => ({ loc: d.loc.slice(1).join("."), msg: d.msg }))).toEqual([{ loc: field, msg }]);
  });

  it("token ids outside the model's vocabulary are a 400", async () => {
    const size = fixture.files.config.vocabSize;
    expect(await post({ allowed_token_ids: [size] })).toMatchObject({ status: 400, body: { detail: `allowed_token_ids contains out-of-vocab token id. Vocabulary size: ${size}` } });
    expect(await post({ logit_bias: { [size]: 5, "-1": 5, "3": 5 } })).toMatchObject({
      status: 400,
      body: { detail: `token_id(s) [${size},-1] in logit_bias contain out-of-vocab token ids. Vocabulary size: ${size}` },
    });
  });

  it("each limit is accepted at its value", async () => {
    const { status, body } = await post({
      stop: many(16, (i) => `${i}`.padEnd(256, "x")),
      logit_bias: Object.fromEntries(many(300, (i) => [String(i), 0.5])),
      bad_words: many(128, (i) => `word${i}`),
      tools: many(128, (i) => ({ type: "function", function: { name: `f${i}` } })),
      // The model's template would render 128 tools into more prompt than its context holds.
      chat_template: "{% for m in messages %}{{ m.content }}{% endfor %}",
    });
    expect(status, JSON.stringify(body)).toBe(200);
  });
});
