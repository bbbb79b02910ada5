import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flushCalls } from "@/lib/call-log/call-recorder";
import { getDb } from "@/lib/db/client";
import { chatCompletionChunkSchema, chatCompletionSchema } from "@/lib/inference/chat-response";
import { api, json } from "./http";
import { createTestTeam, createTestUser, type TestUser } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";

// Chat completions end to end on the embedded engine: real GGUF files served by node-llama-cpp.

let fixture: InferenceFixture;
let user: TestUser;
beforeAll(async () => {
  fixture = installInferenceModels();
  user = await createTestUser();
});
afterAll(() => fixture.remove());

const messages = [{ role: "user", content: "What is 2+3?" }];
const complete = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  json(api("POST", "/v1/chat/completions", { bearer: user.key, body: { messages, ...body }, headers }));

async function readStream(body: Record<string, unknown>) {
  const response = await api("POST", "/v1/chat/completions", { bearer: user.key, body: { messages, stream: true, ...body } });
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const events = (await response.text()).split("\n\n").filter(Boolean).map((e) => e.replace(/^data: /, ""));
  return { status: response.status, events };
}

describe("POST /v1/chat/completions", () => {
  it("answers with every spec field, counts usage, and records the call", async () => {
    const { status, body } = await complete({ max_tokens: 8, seed: 1, temperature: 0.8 });
    expect(status).toBe(200);
    const completion = chatCompletionSchema.parse(body);
    expect(completion).toMatchObject({ object: "chat.completion", model: "test/tiny", system_fingerprint: expect.any(String) });
    expect(completion.id).toMatch(/^chatcmpl-/);
    const [choice] = completion.choices;
    expect(["stop", "length"]).toContain(choice.finish_reason);
    expect(choice.logprobs!.content!.length).toBeLessThanOrEqual(8);
    expect(completion.usage.completion_tokens).toBe(choice.logprobs!.content!.length);
    expect(completion.usage.total_tokens).toBe(completion.usage.prompt_tokens + completion.usage.completion_tokens);
    expect(completion.usage.prompt_tokens).toBeGreaterThan(5);

    await flushCalls();
    const call = await getDb().call.findFirstOrThrow({ where: { requestId: completion.id.slice("chatcmpl-".length) } });
    expect(call).toMatchObject({ model: "test/tiny", baseModel: "test/tiny", status: "success", promptTokens: completion.usage.prompt_tokens, completionTokens: completion.usage.completion_tokens });
    expect((call.output as { choices: { message: { content: string } }[] }).choices[0].message.content).toBe(choice.message.content);
    const project = await getDb().project.findUniqueOrThrow({ where: { id: call.projectId }, include: { team: true } });
    expect(`${project.team.name}/${project.name}`).toBe(`${user.username}/default`);
  });

  it("never answers NUL, however strongly logit_bias favours it, so every answer can be recorded and sent back", async () => {
    const favoured = await complete({ model: "test/frozen", max_tokens: 3, ignore_eos: true, logit_bias: { "0": 100 } });
    expect(favoured.status).toBe(200);
    expect(favoured.body.choices[0].message.content).not.toContain("\u0000");
    await flushCalls();
    const call = await getDb().call.findFirst({ where: { requestId: favoured.body.id.slice("chatcmpl-".length) } });
    expect(call?.status).toBe("success");
  });

  it("is reproducible with a seed, and n choices differ", async () => {
    const a = chatCompletionSchema.parse((await complete({ max_tokens: 12, seed: 42, ignore_eos: true })).body);
    const b = chatCompletionSchema.parse((await complete({ max_tokens: 12, seed: 42, ignore_eos: true })).body);
    expect(a.choices[0].message.content).toBe(b.choices[0].message.content);
    const three = chatCompletionSchema.parse((await complete({ max_tokens: 12, seed: 42, n: 3, ignore_eos: true, return_token_ids: true })).body);
    expect(three.choices.map((c) => c.index)).toEqual([0, 1, 2]);
    expect(new Set(three.choices.map((c) => c.token_ids!.join(","))).size).toBeGreaterThan(1);
    expect(three.usage.completion_tokens).toBe(36);
  });

  it("gives raw logprobs, as token_id:<id> on trainable models by default and as text otherwise", async () => {
    const trained = chatCompletionSchema.parse((await complete({ max_tokens: 5, ignore_eos: true, return_token_ids: true })).body);
    const [choice] = trained.choices;
    expect(choice.logprobs!.content!.map((e) => e.token)).toEqual(choice.token_ids!.map((id) => `token_id:${id}`));
    for (const entry of choice.logprobs!.content!) expect(entry.logprob).toBeLessThanOrEqual(0);

    const frozen = chatCompletionSchema.parse((await complete({ model: "test/frozen", max_tokens: 5 })).body);
    expect(frozen.choices[0].logprobs).toBeNull();
    const asked = chatCompletionSchema.parse((await complete({ model: "test/frozen", max_tokens: 5, ignore_eos: true, logprobs: true, top_logprobs: 3 })).body);
    const entries = asked.choices[0].logprobs!.content!;
    expect(entries).toHaveLength(5);
    for (const e of entries) {
      expect(e.token).not.toMatch(/^token_id:/);
      expect(e.top_logprobs).toHaveLength(3);
      expect(e.top_logprobs[0].logprob).toBeGreaterThanOrEqual(e.top_logprobs[2].logprob);
      expect(e.logprob).toBeLessThanOrEqual(e.top_logprobs[0].logprob + 1e-9);
    }
    const refused = chatCompletionSchema.parse((await complete({ max_tokens: 3, logprobs: false })).body);
    expect(refused.choices[0].logprobs).toBeNull();
  });

  it("stops at a stop token id (stop_reason = that id) and respects min_tokens", async () => {
    const free = chatCompletionSchema.parse((await complete({ max_tokens: 6, seed: 3, ignore_eos: true, return_token_ids: true })).body);
    const third = free.choices[0].token_ids![2];
    const stopped = chatCompletionSchema.parse((await complete({ max_tokens: 6, seed: 3, ignore_eos: true, return_token_ids: true, stop_token_ids: [third] })).body);
    const ids = stopped.choices[0].token_ids!;
    expect(stopped.choices[0]).toMatchObject({ finish_reason: "stop", stop_reason: third });
    expect(ids).toEqual(free.choices[0].token_ids!.slice(0, 3)); // the stop token is in token_ids, not in the text
    expect(stopped.choices[0].message.content).toBe(fixture.files.tokenizer.decode(ids.slice(0, 2)));
    const first = free.choices[0].token_ids![0];
    const atLeast = chatCompletionSchema.parse((await complete({ max_tokens: 6, seed: 3, min_tokens: 4, stop_token_ids: [first], return_token_ids: true })).body);
    expect(atLeast.choices[0].token_ids!.length).toBeGreaterThanOrEqual(4);
  });

  it("cuts at a stop string unless asked to include it", async () => {
    const free = chatCompletionSchema.parse((await complete({ max_tokens: 16, seed: 5, ignore_eos: true })).body);
    const text = free.choices[0].message.content!;
    const stop = text.slice(4, 6);
    expect(stop.length).toBe(2);
    const cut = chatCompletionSchema.parse((await complete({ max_tokens: 16, seed: 5, ignore_eos: true, stop: [stop] })).body);
    expect(cut.choices[0]).toMatchObject({ finish_reason: "stop", stop_reason: null, message: { content: text.slice(0, text.indexOf(stop)) } });
    const kept = chatCompletionSchema.parse((await complete({ max_tokens: 16, seed: 5, ignore_eos: true, stop, include_stop_str_in_output: true })).body);
    expect(kept.choices[0].message.content).toBe(text.slice(0, text.indexOf(stop) + 2));
  });

  it("constrains output to a JSON schema and to a choice", async () => {
    const schema = { type: "object", properties: { answer: { enum: ["yes", "no"] } }, required: ["answer"], additionalProperties: false };
    const r = chatCompletionSchema.parse((await complete({ max_tokens: 40, seed: 9, response_format: { type: "json_schema", json_schema: { name: "a", schema } } })).body);
    expect(["yes", "no"]).toContain(JSON.parse(r.choices[0].message.content!).answer);
    const c = chatCompletionSchema.parse((await complete({ max_tokens: 10, seed: 9, structured_outputs: { choice: ["alpha", "beta"] } })).body);
    expect(["alpha", "beta"]).toContain(c.choices[0].message.content);
  });

  it("applies the token budget rules: max_completion_tokens wins, the context is enforced", async () => {
    const r = chatCompletionSchema.parse((await complete({ max_tokens: 9, max_completion_tokens: 3, ignore_eos: true })).body);
    expect(r.usage.completion_tokens).toBe(3);
    const tooMany = await complete({ max_tokens: 100_000 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toMatch(/context length is only \d+ tokens/);
    const truncated = chatCompletionSchema.parse((await complete({ max_tokens: 2, truncate_prompt_tokens: 4 })).body);
    expect(truncated.usage.prompt_tokens).toBe(4);
  });

  it("streams vLLM's SSE sequence: role chunk, deltas, finish, usage, [DONE]", async () => {
    const seeded = { max_tokens: 10, seed: 11, ignore_eos: true };
    const whole = chatCompletionSchema.parse((await complete(seeded)).body);
    const { status, events } = await readStream({ ...seeded, stream_options: { include_usage: true }, return_token_ids: true });
    expect(status).toBe(200);
    expect(events.at(-1)).toBe("[DONE]");
    const chunks = events.slice(0, -1).map((e) => chatCompletionChunkSchema.parse(JSON.parse(e)));
    expect(chunks[0].choices[0].delta).toEqual({ role: "assistant", content: "" });
    expect(chunks[0].prompt_token_ids!.length).toBe(whole.usage.prompt_tokens);
    const usage = chunks.at(-1)!;
    expect(usage.choices).toEqual([]);
    expect(usage.usage).toMatchObject({ completion_tokens: 10, prompt_tokens: whole.usage.prompt_tokens });
    const finish = chunks.at(-2)!.choices[0];
    expect(finish).toMatchObject({ finish_reason: "length", delta: {} });
    const text = chunks.flatMap((c) => c.choices.map((ch) => ch.delta.content ?? "")).join("");
    expect(text).toBe(whole.choices[0].message.content);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
  });

  it("continuous_usage_stats puts cumulative usage on every chunk", async () => {
    const { events } = await readStream({ max_tokens: 4, ignore_eos: true, stream_options: { include_usage: true, continuous_usage_stats: true } });
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
    for (const c of chunks) expect(c.usage).toBeDefined();
    expect(chunks.at(-2).usage.completion_tokens).toBe(4);
  });
});

describe("chat completion errors", () => {
  it("an unknown model is 404 with the OpenAI envelope beside detail", async () => {
    const { status, body } = await complete({ model: "nobody/nothing/none" });
    expect(status).toBe(404);
    expect(body).toEqual({
      detail: "The model `nobody/nothing/none` does not exist.",
      error: { message: "The model `nobody/nothing/none` does not exist.", type: "not_found", param: null, code: 404 },
    });
  });

  it("validation failures are 422 detail with the envelope; unsupported parameters are 400", async () => {
    const invalid = await complete({ temperature: 5 });
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail[0].loc).toEqual(["body", "temperature"]);
    expect(invalid.body.error.message).toMatch(/temperature/);
    const priority = await complete({ priority: 1 });
    expect(priority).toMatchObject({ status: 400, body: { detail: "Got priority 1 but Priority scheduling is not enabled." } });
    const beam = await complete({ use_beam_search: true });
    expect(beam.status).toBe(400);
    const image = await json(api("POST", "/v1/chat/completions", { bearer: user.key, body: { messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "x" } }] }] } }));
    expect(image.status).toBe(400);
    expect(image.body.detail).toMatch(/text only/);
  });

  it("Svc-Project attributes usage; another team's is 404, an annotator's is 403, a malformed one 422", async () => {
    const team = await createTestTeam();
    const own = await json(api("POST", "/v1/chat/completions", { bearer: team.member.key, body: { messages, max_tokens: 2 }, headers: { "svc-project": `${team.name}/evals` } }));
    expect(own.status).toBe(200);
    await flushCalls();
    const call = await getDb().call.findFirstOrThrow({ where: { requestId: own.body.id.slice(9) }, include: { project: true } });
    expect(call.project.name).toBe("evals");
    expect((await complete({ max_tokens: 2 }, { "svc-project": `${team.name}/evals` })).status).toBe(404);
    const annotator = await json(api("POST", "/v1/chat/completions", { bearer: team.annotator.key, body: { messages }, headers: { "svc-project": `${team.name}/evals` } }));
    expect(annotator.status).toBe(403);
    expect((await complete({}, { "svc-project": "not a project" })).body.detail[0].loc).toEqual(["header", "svc-project"]);
  });
});

describe("GET /v1/usage", () => {
  it("rolls recorded calls up per project, model and day", async () => {
    const owner = await createTestUser();
    const ask = (body: Record<string, unknown>) => json(api("POST", "/v1/chat/completions", { bearer: owner.key, body: { messages, max_tokens: 3, ignore_eos: true, ...body } }));
    await ask({});
    await ask({ n: 2 });
    await ask({ model: "test/frozen" });
    // At once: the calls are still in the write-behind buffer, and the read writes them first.
    const { status, body } = await json(api("GET", `/v1/usage?project=${owner.username}/default`, { bearer: owner.key }));
    expect(status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const byModel = Object.fromEntries(body.data.map((r: { model: string }) => [r.model, r]));
    expect(byModel["test/tiny"]).toMatchObject({ day: today, team: owner.username, project: "default", requests: 2, completion_tokens: 9, errors: 0 });
    expect(byModel["test/frozen"]).toMatchObject({ requests: 1, completion_tokens: 3 });
    expect(byModel["test/tiny"].total_tokens).toBe(byModel["test/tiny"].prompt_tokens + 9);
    const bad = await json(api("GET", "/v1/usage?start=2026-02-01&end=2026-01-01", { bearer: owner.key }));
    expect(bad.status).toBe(400);
  });
});

describe("GET /v1/models", () => {
  it("lists base models first with the default marked", async () => {
    const { status, body } = await json(api("GET", "/v1/models", { bearer: user.key }));
    expect(status).toBe(200);
    const ids = body.data.map((m: { id: string }) => m.id);
    expect(ids.indexOf("test/tiny")).toBeLessThan(ids.indexOf("test/frozen"));
    expect(body.data.find((m: { id: string }) => m.id === "test/tiny")).toMatchObject({ default: true, trainable: true, object: "model" });
    expect(body.data.find((m: { id: string }) => m.id === "test/frozen")).toMatchObject({ default: false, trainable: false });
  });
});
