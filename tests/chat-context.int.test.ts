import { beforeAll, describe, expect, it } from "vitest";
import { api, json } from "./http";
import { createTestUser, type TestUser } from "./factories";

// The shipped tiny-chat is served with the context it was trained on (128 tokens, its GGUF's
// llama.context_length): a completion ends there, and a request that cannot fit is a 400 that
// says why.

let user: TestUser;
beforeAll(async () => {
  user = await createTestUser();
});

const post = (content: string, body: Record<string, unknown> = {}) =>
  json(api("POST", "/v1/chat/completions", { bearer: user.key, body: { model: "anneal/tiny-chat", messages: [{ role: "user", content }], ignore_eos: true, ...body } }));

describe("tiny-chat's trained context", () => {
  it("a completion without max_tokens ends at 128 tokens of prompt and output", async () => {
    const { status, body } = await post("What is 12 + 30?");
    expect(status).toBe(200);
    expect(body.usage.total_tokens).toBe(128);
    expect(body.choices[0].finish_reason).toBe("length");
  });

  it("a prompt that does not fit is a 400 naming the context length", async () => {
    const { status, body } = await post("hello ".repeat(60));
    expect(status).toBe(400);
    expect(body.detail).toMatch(/^You passed \d+ input tokens, but the model's context length is only 128 tokens\. Please reduce the length of the input prompt\.$/);
  });

  it("an output budget that fills the context is a 400 naming its field", async () => {
    expect(await post("hi", { max_tokens: 200 })).toMatchObject({
      status: 400,
      body: { detail: "max_tokens is 200, but the model's context length is only 128 tokens, which must also hold the prompt. Please request fewer output tokens." },
    });
    expect((await post("hi", { max_completion_tokens: 128 })).body.detail).toMatch(/^max_completion_tokens is 128, /);
  });
});
