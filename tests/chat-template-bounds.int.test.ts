import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, json } from "./http";
import { createTestUser, type TestUser } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";

// A request's own chat_template runs on the engine thread: rendering is bounded in time and in
// what it builds, a template over a bound is the request's 400 saying which, and the other
// requests on the thread keep generating meanwhile and after.

const messages = [{ role: "user", content: "Say something." }];
const post = (body: Record<string, unknown>) => json(api("POST", "/v1/chat/completions", { bearer: user.key, body: { messages, model: "test/frozen", max_tokens: 4, ...body } }));

let fixture: InferenceFixture;
let user: TestUser;
beforeAll(async () => {
  fixture = installInferenceModels();
  user = await createTestUser();
  // The engine thread started and the model loaded: the timings below are the bounds'.
  expect((await post({})).status).toBe(200);
});
afterAll(() => fixture.remove());

describe("chat_template bounds", () => {
  it.each([
    ["range(100000000)", "{% for i in range(100000000) %}x{% endfor %}", "chat_template called range() for more than 100000 items."],
    ["loops that never finish", "{% for i in range(100000) %}{% for j in range(100000) %}{{ j }}{% endfor %}{% endfor %}", "chat_template rendering exceeded 50000 evaluation steps."],
    ["a text that doubles", "{% set ns = namespace(v='x') %}{% for i in range(64) %}{% set ns.v = ns.v + ns.v %}{% endfor %}{{ ns.v }}", "chat_template rendering built a text of more than 4194304 characters."],
  ])("%s is a 400 naming the bound", async (_, chat_template, bound) => {
    const started = performance.now();
    const { status, body } = await post({ chat_template });
    expect(status, JSON.stringify(body)).toBe(400);
    expect(body.detail).toBe(`The chat template failed to render these messages: ${bound}`);
    expect(performance.now() - started).toBeLessThan(5000); // answered within a few seconds, as any bad input
  });

  it("keeps other requests generating during and after", async () => {
    const tokens = 48;
    const normal = { model: "test/tiny", max_tokens: tokens, ignore_eos: true, seed: 5 };
    const [concurrent, bounded] = await Promise.all([
      post(normal),
      post({ chat_template: "{% for i in range(100000) %}{% for j in range(100000) %}{{ j }}{% endfor %}{% endfor %}" }),
    ]);
    expect(bounded.status).toBe(400);
    expect(concurrent.status).toBe(200);
    expect(concurrent.body.usage.completion_tokens).toBe(tokens);
    const after = await post(normal);
    expect(after.status).toBe(200);
    expect(after.body.choices[0].message.content).toBe(concurrent.body.choices[0].message.content);
  });
});
