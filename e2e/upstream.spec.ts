import { expect, test } from "@playwright/test";
import { E2E_UPSTREAM } from "../playwright.config";
import { adminAuth } from "./session";

// A second Anneal instance (a real server, its own process and database) registered in the first
// as the upstream of `upstream/tiny-chat`: requests pass through, streamed too, and both record them.

const upstreamAuth = { authorization: `Bearer ${E2E_UPSTREAM.key}` };
const messages = [{ role: "user", content: "Hi!" }];

test("chat completions pass through to the upstream instance, with and without streaming", async ({ request }) => {
  const models = await (await request.get("/v1/models", { headers: adminAuth })).json();
  expect(models.data.map((m: { id: string }) => m.id)).toEqual(expect.arrayContaining(["anneal/tiny-chat", "upstream/tiny-chat"]));

  const whole = await request.post("/v1/chat/completions", { headers: adminAuth, data: { model: "upstream/tiny-chat", messages, max_tokens: 8, seed: 3 } });
  expect(whole.status()).toBe(200);
  const body = await whole.json();
  expect(body.model).toBe("upstream/tiny-chat");
  const local = await (await request.post("/v1/chat/completions", { headers: adminAuth, data: { model: "anneal/tiny-chat", messages, max_tokens: 8, seed: 3 } })).json();
  expect(body.choices[0].message.content).toBe(local.choices[0].message.content);

  const streamed = await request.post("/v1/chat/completions/", { headers: adminAuth, data: { model: "upstream/tiny-chat", messages, max_tokens: 8, seed: 3, stream: true } });
  expect(streamed.status()).toBe(200);
  const events = (await streamed.text()).split("\n\n").filter(Boolean);
  expect(events.at(-1)).toBe("data: [DONE]");
  const text = events.slice(0, -1).map((e) => JSON.parse(e.slice(6))).map((c) => c.choices[0]?.delta?.content ?? "").join("");
  expect(text).toBe(body.choices[0].message.content);

  // The upstream recorded the calls under its own model name, in its own database.
  await expect
    .poll(async () => {
      const usage = await (await request.get(`http://127.0.0.1:${E2E_UPSTREAM.port}/v1/usage`, { headers: upstreamAuth })).json();
      return usage.data.find((r: { model: string }) => r.model === "anneal/tiny-chat")?.requests ?? 0;
    })
    .toBeGreaterThanOrEqual(2);
});

test("the trailing-slash path answers directly, without a redirect", async ({ request }) => {
  const response = await request.post("/v1/chat/completions/", { headers: adminAuth, data: { messages, max_tokens: 2 }, maxRedirects: 0 });
  expect(response.status()).toBe(200);
  expect((await response.json()).object).toBe("chat.completion");
});
