import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flushCalls } from "@/lib/call-log/call-recorder";
import { resetEnvCache } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { api, json } from "./http";
import { createTestUser, type TestUser } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";

// Admission per model: 8 generating sequences plus ANNEAL_INFERENCE_QUEUE waiting; beyond that a
// 429 with Retry-After. A client that goes away ends its generation and frees its place.

let fixture: InferenceFixture;
let user: TestUser;
beforeAll(async () => {
  fixture = installInferenceModels();
  process.env.ANNEAL_INFERENCE_QUEUE = "0";
  resetEnvCache();
  user = await createTestUser();
});
afterAll(() => {
  delete process.env.ANNEAL_INFERENCE_QUEUE;
  resetEnvCache();
  fixture.remove();
});

const long = { messages: [{ role: "user", content: "Go on." }], model: "test/frozen", max_tokens: 200, ignore_eos: true, stream: true };

describe("inference capacity", () => {
  it("refuses with 429 + Retry-After when full, and a disconnect frees the place", async () => {
    const streams = await Promise.all(Array.from({ length: 8 }, () => api("POST", "/v1/chat/completions", { bearer: user.key, body: long })));
    expect(streams.map((r) => r.status)).toEqual(Array(8).fill(200));
    const refused = await api("POST", "/v1/chat/completions", { bearer: user.key, body: { ...long, stream: false, max_tokens: 2 } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect((await refused.json()).error.message).toMatch(/is busy/);

    await Promise.all(streams.map((r) => r.body!.cancel())); // the clients go away
    await expect
      .poll(async () => (await api("POST", "/v1/chat/completions", { bearer: user.key, body: { ...long, stream: false, max_tokens: 2 } })).status, { timeout: 15_000 })
      .toBe(200);
    const other = await json(api("POST", "/v1/chat/completions", { bearer: user.key, body: { ...long, model: "test/tiny", stream: false, max_tokens: 2 } }));
    expect(other.status).toBe(200); // capacity is per model
    await flushCalls();
    const cancelled = await getDb().call.findMany({ where: { userId: user.principal.user.id, status: "cancelled" } });
    expect(cancelled).toHaveLength(8);
    for (const call of cancelled) expect(call.completionTokens).toBeLessThan(200);
  });
});
