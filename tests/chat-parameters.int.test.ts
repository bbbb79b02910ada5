import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IM_END } from "@/lib/engine/tokenizer/chatml";
import { chatCompletionSchema, type ChatCompletion } from "@/lib/inference/chat-response";
import { api, json } from "./http";
import { createTestUser, type TestUser } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";

// One test per honoured chat-completion parameter, showing its effect on the output; each refused
// parameter's 400. Random-weight models make outputs arbitrary but deterministic per seed.

let fixture: InferenceFixture;
let user: TestUser;
let imEnd: number;
beforeAll(async () => {
  fixture = installInferenceModels();
  user = await createTestUser();
  imEnd = fixture.files.tokenizer.tokenId(IM_END)!;
});
afterAll(() => fixture.remove());

const messages = [{ role: "user", content: "Say something." }];
async function complete(body: Record<string, unknown>): Promise<ChatCompletion> {
  const { status, body: out } = await json(api("POST", "/v1/chat/completions", { bearer: user.key, body: { messages, model: "test/frozen", ...body } }));
  expect(status, JSON.stringify(out)).toBe(200);
  return chatCompletionSchema.parse(out);
}
const refused = async (body: Record<string, unknown>) => json(api("POST", "/v1/chat/completions", { bearer: user.key, body: { messages, ...body } }));
const ids = (c: ChatCompletion, i = 0) => c.choices[i].token_ids!;
const base = { max_tokens: 12, ignore_eos: true, return_token_ids: true, seed: 21 };

describe("sampling parameters", () => {
  it("temperature 0, top_k 1, tiny top_p and min_p 1 all pick the most likely token", async () => {
    const greedy = ids(await complete({ ...base, temperature: 0 }));
    expect(ids(await complete({ ...base, temperature: 0, seed: 99 }))).toEqual(greedy);
    expect(ids(await complete({ ...base, top_k: 1 }))).toEqual(greedy);
    expect(ids(await complete({ ...base, top_p: 1e-6 }))).toEqual(greedy);
    expect(ids(await complete({ ...base, min_p: 1 }))).toEqual(greedy);
    expect(ids(await complete({ ...base }))).not.toEqual(greedy);
  });

  it("logit_bias forces a token; allowed_token_ids restricts to a set", async () => {
    const forced = ids(await complete({ ...base, logit_bias: { "65": 100 } }));
    expect(new Set(forced)).toEqual(new Set([65]));
    const allowed = [70, 71, 72];
    for (const id of ids(await complete({ ...base, allowed_token_ids: allowed }))) expect(allowed).toContain(id);
  });

  it("frequency, presence and repetition penalties reduce repeats of a favoured token", async () => {
    // The smallest bias that makes token 66 dominate greedy output; each penalty should then cut it back.
    const long = { ...base, max_tokens: 24, temperature: 0 };
    const count = (tokens: number[]) => tokens.filter((t) => t === 66).length;
    let bias = 0;
    let plain = 0;
    for (const b of [0.5, 1, 2, 3, 4, 6, 8, 12]) {
      plain = count(ids(await complete({ ...long, logit_bias: { "66": b } })));
      bias = b;
      if (plain >= 12) break;
    }
    expect(plain).toBeGreaterThanOrEqual(12);
    const favoured = { ...long, logit_bias: { "66": bias } };
    expect(count(ids(await complete({ ...favoured, frequency_penalty: 2 })))).toBeLessThan(plain);
    expect(count(ids(await complete({ ...favoured, presence_penalty: 2 })))).toBeLessThan(plain);
    expect(count(ids(await complete({ ...favoured, repetition_penalty: 50 })))).toBeLessThan(plain);
  });

  it("bad_words are never generated", async () => {
    const greedy = ids(await complete({ ...base, temperature: 0 }));
    const word = fixture.files.tokenizer.decode([greedy[0]]);
    const banned = ids(await complete({ ...base, temperature: 0, bad_words: [word.trim() || word] }));
    expect(banned[0]).not.toBe(greedy[0]);
  });
});

describe("structured outputs", () => {
  it("regex constrains the output to match it; an inexpressible regex is a 400 naming why", async () => {
    const r = await complete({ max_tokens: 20, seed: 4, structured_outputs: { regex: "[A-C]{2}-\\d{2}" } });
    expect(r.choices[0].message.content).toMatch(/^[A-C]{2}-\d{2}$/);
    const lookahead = await refused({ structured_outputs: { regex: "(?=x)y" } });
    expect(lookahead.status).toBe(400);
    expect(lookahead.body.detail).toMatch(/lookaround/);
  });

  it("grammar (GBNF) and json_object constrain the output", async () => {
    const g = await complete({ max_tokens: 10, seed: 4, structured_outputs: { grammar: 'root ::= "ok" [0-9]' } });
    expect(g.choices[0].message.content).toMatch(/^ok[0-9]$/);
    const j = await complete({ max_tokens: 40, seed: 4, response_format: { type: "json_object" } });
    expect(() => JSON.parse(j.choices[0].message.content!)).not.toThrow();
  });
});

describe("stopping", () => {
  it("stops at end-of-turn unless ignore_eos", async () => {
    const stopped = await complete({ max_tokens: 5, return_token_ids: true, logit_bias: { [imEnd]: 100 } });
    expect(stopped.choices[0]).toMatchObject({ finish_reason: "stop", stop_reason: null, token_ids: [imEnd], message: { content: "" } });
    expect(stopped.usage.completion_tokens).toBe(1);
    const ignored = await complete({ max_tokens: 5, ignore_eos: true, return_token_ids: true, logit_bias: { [imEnd]: 100 } });
    expect(ignored.choices[0]).toMatchObject({ finish_reason: "length", token_ids: [imEnd, imEnd, imEnd, imEnd, imEnd] });
  });

  it("skip_special_tokens false shows special tokens' text", async () => {
    const hidden = await complete({ max_tokens: 2, ignore_eos: true, logit_bias: { [imEnd]: 100 } });
    expect(hidden.choices[0].message.content).toBe("");
    const shown = await complete({ max_tokens: 2, ignore_eos: true, logit_bias: { [imEnd]: 100 }, skip_special_tokens: false });
    expect(shown.choices[0].message.content).toBe(`${IM_END}${IM_END}`);
  });

  it("repetition_detection ends a repeating output", async () => {
    const r = await complete({ max_tokens: 20, ignore_eos: true, return_token_ids: true, logit_bias: { "66": 100 }, repetition_detection: { max_pattern_size: 2, min_pattern_size: 1, min_count: 3 } });
    expect(r.choices[0]).toMatchObject({ finish_reason: "repetition", token_ids: [66, 66, 66] });
  });
});

describe("prompt construction", () => {
  const assistantPrefill = [...messages, { role: "assistant", content: "Well" }];

  it("add_generation_prompt false leaves the assistant header off", async () => {
    const withPrompt = await complete({ max_tokens: 1, return_token_ids: true });
    const without = await complete({ max_tokens: 1, return_token_ids: true, add_generation_prompt: false });
    expect(without.usage.prompt_tokens).toBeLessThan(withPrompt.usage.prompt_tokens);
    expect(withPrompt.prompt_token_ids!.slice(0, without.usage.prompt_tokens)).toEqual(without.prompt_token_ids);
  });

  it("continue_final_message continues the last message, and echo prepends it", async () => {
    const r = await complete({ messages: assistantPrefill, continue_final_message: true, echo: true, max_tokens: 3, return_token_ids: true });
    const prompt = fixture.files.tokenizer.decode(r.prompt_token_ids!);
    expect(prompt.endsWith("Well")).toBe(true);
    expect(r.choices[0].message.content!.startsWith("Well")).toBe(true);
    const noEcho = await complete({ messages: assistantPrefill, continue_final_message: true, max_tokens: 3 });
    expect(noEcho.choices[0].message.content!.startsWith("Well")).toBe(false);
  });

  it("chat_template, chat_template_kwargs, documents and tools reach the template", async () => {
    const template = "{{ greeting }}|{% for d in documents %}{{ d.title }}{% endfor %}|{% for t in tools %}{{ t.function.name }}{% endfor %}|{{ messages[-1].content }}";
    const r = await complete({
      max_tokens: 1, return_token_ids: true, chat_template: template, chat_template_kwargs: { greeting: "hello" },
      documents: [{ title: "doc1", text: "x" }], tools: [{ type: "function", function: { name: "lookup" } }],
    });
    expect(fixture.files.tokenizer.decode(r.prompt_token_ids!)).toBe("hello|doc1|lookup|Say something.");
  });

  it("add_special_tokens puts the beginning-of-sequence token first", async () => {
    const plain = await complete({ max_tokens: 1, return_token_ids: true });
    const special = await complete({ max_tokens: 1, return_token_ids: true, add_special_tokens: true });
    expect(special.usage.prompt_tokens).toBe(plain.usage.prompt_tokens + 1);
    expect(special.prompt_token_ids!.slice(1)).toEqual(plain.prompt_token_ids);
  });

  it("return_tokens_as_token_ids false gives text tokens on a trainable model", async () => {
    const r = await complete({ model: "test/tiny", max_tokens: 3, ignore_eos: true, return_tokens_as_token_ids: false });
    for (const e of r.choices[0].logprobs!.content!) expect(e.token).not.toMatch(/^token_id:/);
  });
});

describe("prompt_logprobs", () => {
  it("scores every prompt token after the first, with its rank and alternatives", async () => {
    const r = await complete({ max_tokens: 1, return_token_ids: true, prompt_logprobs: 2 });
    const entries = r.prompt_logprobs as (Record<string, { logprob: number; rank: number; decoded_token: string }> | null)[];
    expect(entries).toHaveLength(r.usage.prompt_tokens);
    expect(entries[0]).toBeNull();
    r.prompt_token_ids!.slice(1).forEach((id, i) => {
      const entry = entries[i + 1]!;
      expect(entry[id]).toMatchObject({ rank: expect.any(Number), decoded_token: fixture.files.tokenizer.decode([id]) });
      expect(entry[id].logprob).toBeLessThanOrEqual(0);
      const ranks = Object.values(entry).map((e) => e.rank);
      expect(ranks).toEqual(expect.arrayContaining([1, 2]));
    });
  });
});

describe("recorded and echoed parameters", () => {
  it("request_id names the completion; kv_transfer_params is echoed; user, cache_salt, engine_xargs are accepted", async () => {
    const r = await complete({ max_tokens: 1, request_id: "my-request-1", kv_transfer_params: { a: 1 }, user: "u", cache_salt: "salt", engine_xargs: { k: [1, "x"] }, parallel_tool_calls: false, reasoning_effort: "low", include_reasoning: false, mm_processor_kwargs: {} });
    expect(r.id).toBe("chatcmpl-my-request-1");
    expect(r.kv_transfer_params).toEqual({ a: 1 });
  });
});

describe("refused parameters", () => {
  it.each([
    [{ priority: 2 }, "Got priority 2 but Priority scheduling is not enabled."],
    [{ use_beam_search: true }, "use_beam_search is not supported by the embedded engine."],
    [{ length_penalty: 0.5 }, "length_penalty only applies to beam search, which the embedded engine does not support."],
    [{ logprobs: true, top_logprobs: 21 }, "Requested sample logprobs of 21, which is greater than max allowed: 20"],
    [{ prompt_logprobs: 25 }, "Requested prompt logprobs of 25, which is greater than max allowed: 20"],
  ])("%j is 400", async (body, message) => {
    expect(await refused(body)).toMatchObject({ status: 400, body: { detail: message, error: { message, code: 400 } } });
  });
});
