import fs from "node:fs";
import path from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flushCalls } from "@/lib/call-log/call-recorder";
import { resetEnvCache } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { chatCompletionSchema } from "@/lib/inference/chat-response";
import { api, json } from "./http";
import { serveApp } from "./http-server";
import { createTestUser, type TestUser } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";

// Upstream engines: a base model served by another OpenAI-compatible server. The upstream here is
// Anneal itself over a real loopback socket, registered under another name.

let fixture: InferenceFixture;
let upstream: Awaited<ReturnType<typeof serveApp>>;
let user: TestUser;

beforeAll(async () => {
  fixture = installInferenceModels();
  upstream = await serveApp();
  const upstreamUser = await createTestUser({ prefix: "upstream" });
  const listing = path.join(fixture.files.dir, "models.json");
  const models = JSON.parse(fs.readFileSync(listing, "utf8"));
  models.push(
    { name: "remote/tiny", upstream: `${upstream.url}/v1`, upstream_model: "test/frozen", api_key_env: "ANNEAL_TEST_UPSTREAM_KEY" },
    { name: "remote/down", upstream: "http://127.0.0.1:9/v1" },
    { name: "remote/missing", upstream: `${upstream.url}/v1`, upstream_model: "no/such/model", api_key_env: "ANNEAL_TEST_UPSTREAM_KEY" },
  );
  fs.writeFileSync(listing, JSON.stringify(models));
  process.env.ANNEAL_TEST_UPSTREAM_KEY = upstreamUser.key;
  resetEnvCache();
  user = await createTestUser();
});
afterAll(async () => {
  await upstream.close();
  fixture.remove();
});

const messages = [{ role: "user", content: "Hello there" }];
const body = { messages, max_tokens: 6, seed: 13, ignore_eos: true };

describe("upstream engines", () => {
  it("passes a request through under the upstream's model name and answers under ours", async () => {
    const remote = await json(api("POST", "/v1/chat/completions", { bearer: user.key, body: { ...body, model: "remote/tiny" } }));
    expect(remote.status).toBe(200);
    const completion = chatCompletionSchema.parse(remote.body);
    expect(completion.model).toBe("remote/tiny");
    const local = chatCompletionSchema.parse((await json(api("POST", "/v1/chat/completions", { bearer: user.key, body: { ...body, model: "test/frozen" } }))).body);
    expect(completion.choices[0].message.content).toBe(local.choices[0].message.content);
    await flushCalls();
    const call = await getDb().call.findFirstOrThrow({ where: { model: "remote/tiny", userId: user.principal.user.id } });
    expect(call).toMatchObject({ status: "success", baseModel: "remote/tiny", completionTokens: 6, promptTokens: completion.usage.prompt_tokens });
  });

  it("streams through, renaming the model and keeping the usage chunk only when asked", async () => {
    const client = new OpenAI({
      apiKey: user.key,
      baseURL: "http://anneal.test/v1",
      maxRetries: 0,
      fetch: async (url: RequestInfo | URL, init?: RequestInit) =>
        api(init?.method ?? "GET", String(url), { rawBody: init?.body as string, headers: Object.fromEntries(new Headers(init?.headers).entries()) }),
    });
    const collect = async (includeUsage: boolean) => {
      const stream = await client.chat.completions.create({ ...body, model: "remote/tiny", stream: true, ...(includeUsage && { stream_options: { include_usage: true } }) } as OpenAI.Chat.ChatCompletionCreateParamsStreaming);
      const chunks = [];
      for await (const chunk of stream) chunks.push(chunk);
      return chunks;
    };
    const plain = await collect(false);
    expect(plain.every((c) => c.model === "remote/tiny")).toBe(true);
    expect(plain.some((c) => c.usage)).toBe(false);
    expect(plain.map((c) => c.choices[0]?.delta.content ?? "").join("").length).toBeGreaterThan(0);
    const withUsage = await collect(true);
    expect(withUsage.at(-1)!.usage?.completion_tokens).toBe(6);
  });

  it("records a streamed call as its chunks merged into one body: text, logprobs, token ids, finish, usage", async () => {
    const asked = { ...body, model: "remote/tiny", n: 2, temperature: 1, logprobs: true, return_token_ids: true };
    const whole = chatCompletionSchema.parse((await json(api("POST", "/v1/chat/completions", { bearer: user.key, body: asked }))).body);
    const streamed = await api("POST", "/v1/chat/completions", { bearer: user.key, body: { ...asked, stream: true } });
    expect(await streamed.text()).toContain("data: [DONE]");
    await flushCalls();
    const call = await getDb().call.findUniqueOrThrow({ where: { id: streamed.headers.get("anneal-call-id")! } });
    const recorded = call.output as { model: string; choices: { message: { content: string }; logprobs: { content: { token: string; logprob: number }[] }; token_ids: number[]; finish_reason: string }[]; usage: unknown };
    expect(recorded.model).toBe("remote/tiny");
    expect(recorded.usage).toMatchObject({ prompt_tokens: whole.usage.prompt_tokens, completion_tokens: 12 });
    expect(call).toMatchObject({ status: "success", completionTokens: 12, promptTokens: whole.usage.prompt_tokens });
    // The same seed: the same choices as the whole response (logprobs to float noise).
    const essentials = (choices: typeof recorded.choices) =>
      choices.map((c) => ({ content: c.message.content, finish: c.finish_reason, tokenIds: c.token_ids, logprobs: c.logprobs.content.map((e) => [e.token, e.logprob.toFixed(4)]) }));
    expect(essentials(recorded.choices)).toEqual(essentials(whole.choices as unknown as typeof recorded.choices));
    expect(recorded.choices[0].token_ids).toHaveLength(6);
  });

  it("an unreachable upstream is 503 naming it; an upstream error keeps its status and message", async () => {
    const down = await json(api("POST", "/v1/chat/completions", { bearer: user.key, body: { ...body, model: "remote/down" } }));
    expect(down.status).toBe(503);
    expect(down.body.detail).toMatch(/^Upstream for 'remote\/down' \(127\.0\.0\.1:9\) is unreachable/);
    const missing = await json(api("POST", "/v1/chat/completions", { bearer: user.key, body: { ...body, model: "remote/missing" } }));
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe("Upstream for 'remote/missing' answered 404: The model `no/such/model` does not exist.");
  });

  it("lists upstream models among the base models", async () => {
    const { body: models } = await json(api("GET", "/v1/models", { bearer: user.key }));
    expect(models.data.find((m: { id: string }) => m.id === "remote/tiny")).toMatchObject({ trainable: false, default: false });
  });
});
