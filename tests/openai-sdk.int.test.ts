import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, BASE_URL } from "./http";
import { createTestUser } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";

// The official `openai` SDK as a real client: its requests go through the app's route handlers
// (its `fetch` is the in-process harness), exactly as they would over a socket.

let fixture: InferenceFixture;
let client: OpenAI;
beforeAll(async () => {
  fixture = installInferenceModels();
  const user = await createTestUser();
  client = new OpenAI({
    apiKey: user.key,
    baseURL: `${BASE_URL}/v1`,
    maxRetries: 0,
    fetch: async (url: RequestInfo | URL, init?: RequestInit) => {
      const headers = Object.fromEntries(new Headers(init?.headers).entries());
      return api(init?.method ?? "GET", String(url), { rawBody: init?.body as string | undefined, headers });
    },
  });
});
afterAll(() => fixture.remove());

const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: "user", content: "Count to three." }];

describe("openai SDK", () => {
  it("chat.completions.create without streaming", async () => {
    const completion = await client.chat.completions.create({ model: "test/tiny", messages, max_tokens: 8, seed: 4 });
    expect(completion.object).toBe("chat.completion");
    expect(completion.choices[0].message.role).toBe("assistant");
    expect(typeof completion.choices[0].message.content).toBe("string");
    expect(completion.usage!.total_tokens).toBe(completion.usage!.prompt_tokens + completion.usage!.completion_tokens);
  });

  it("streams, and the stream assembles to the non-streamed answer", async () => {
    const params = { model: "test/frozen", messages, max_tokens: 12, seed: 8, ignore_eos: true } as const;
    const whole = await client.chat.completions.create(params as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming);
    const stream = await client.chat.completions.create({ ...params, stream: true, stream_options: { include_usage: true } } as OpenAI.Chat.ChatCompletionCreateParamsStreaming);
    let text = "";
    let usage: OpenAI.CompletionUsage | undefined | null;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe(whole.choices[0].message.content);
    expect(finish).toBe("length");
    expect(usage?.completion_tokens).toBe(12);
  });

  it("returns logprobs with top alternatives", async () => {
    const completion = await client.chat.completions.create({ model: "test/frozen", messages, max_tokens: 4, logprobs: true, top_logprobs: 2, ignore_eos: true } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming);
    const content = completion.choices[0].logprobs!.content!;
    expect(content).toHaveLength(4);
    expect(content[0].top_logprobs).toHaveLength(2);
  });

  it("response_format json_schema output validates against the schema", async () => {
    const schema = {
      type: "object",
      properties: { color: { type: "string", enum: ["red", "green"] }, ok: { type: "boolean" } },
      required: ["color", "ok"],
      additionalProperties: false,
    };
    const completion = await client.chat.completions.create({
      model: "test/tiny", messages, max_tokens: 60, seed: 2,
      response_format: { type: "json_schema", json_schema: { name: "answer", schema, strict: true } },
    });
    const value = JSON.parse(completion.choices[0].message.content!);
    expect(["red", "green"]).toContain(value.color);
    expect(typeof value.ok).toBe("boolean");
    expect(Object.keys(value).sort()).toEqual(["color", "ok"]);
  });

  it("n > 1 gives n choices", async () => {
    const completion = await client.chat.completions.create({ model: "test/tiny", messages, max_tokens: 5, n: 3, seed: 1 });
    expect(completion.choices.map((c) => c.index)).toEqual([0, 1, 2]);
  });

  it("errors surface as the SDK's typed errors with the server's message", async () => {
    await expect(client.chat.completions.create({ model: "no/such/model", messages })).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining("The model `no/such/model` does not exist."),
    });
    await expect(client.chat.completions.create({ model: "test/tiny", messages, temperature: 9 })).rejects.toMatchObject({ status: 422 });
  });

  it("models.list shows the base models", async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(expect.arrayContaining(["test/tiny", "test/frozen"]));
  });
});
