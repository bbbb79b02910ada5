import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callDetailSchema, callPage, type CallDto } from "@/lib/calls/schemas";
import { api, json } from "./http";
import { createTestTeam } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";

// Recorded calls over HTTP: chat completions made through the API, then listed (newest first,
// cursor pages, project/model/status filters) and read back whole, right after the responses (the
// write-behind buffer is written before a read); tenancy and roles.

let fixture: InferenceFixture;
let team: Awaited<ReturnType<typeof createTestTeam>>;
let other: Awaited<ReturnType<typeof createTestTeam>>;
const ids: string[] = [];

async function complete(key: string, project: string, content: string, extra: Record<string, unknown> = {}) {
  const response = await api("POST", "/v1/chat/completions", {
    bearer: key,
    headers: { "svc-project": project },
    body: { messages: [{ role: "system", content: "Be brief." }, { role: "user", content }], max_tokens: 3, temperature: 0, ...extra },
  });
  expect(response.status).toBe(200);
  await response.json();
  return response.headers.get("anneal-call-id")!;
}

async function list(key: string, query = "") {
  const res = await json(api("GET", `/v1/calls${query}`, { bearer: key }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return callPage.parse(res.body);
}

beforeAll(async () => {
  fixture = installInferenceModels();
  [team, other] = await Promise.all([createTestTeam(), createTestTeam()]);
  for (const content of ["one", "two", "three"]) {
    ids.push(await complete(team.member.key, `${team.name}/evals`, content));
    await new Promise((r) => setTimeout(r, 5)); // distinct start times
  }
  ids.push(await complete(team.member.key, `${team.name}/other`, "elsewhere"));
  await complete(other.admin.key, `${other.name}/evals`, "foreign");
});
afterAll(() => fixture.remove());

describe("GET /v1/calls", () => {
  it("lists a project's calls newest first with their messages, answer, usage and ref", async () => {
    const page = await list(team.admin.key, `?project=${team.name}/evals`);
    expect(page.data.map((c) => c.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(page.has_more).toBe(false);
    const call = page.data[0];
    expect(call).toMatchObject({
      object: "call",
      project: `${team.name}/evals`,
      ref: `svc:///${team.name}/evals/call/${ids[2]}`,
      model: "test/tiny",
      base_model: "test/tiny",
      model_id: null,
      checkpoint_step: null,
      status: "success",
      error: null,
      messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "three" }],
      output: { role: "assistant", content: expect.any(String) },
    });
    expect(call.usage.completion_tokens).toBeGreaterThan(0);
    expect(call.usage.total_tokens).toBe(call.usage.prompt_tokens + call.usage.completion_tokens);
    expect(call.latency_ms).toEqual(expect.any(Number));
  });

  it("pages with after and limit in both orders; an unknown cursor is 422", async () => {
    const first = await list(team.admin.key, `?project=${team.name}/evals&limit=2`);
    expect(first.data.map((c) => c.id)).toEqual([ids[2], ids[1]]);
    expect(first.has_more).toBe(true);
    const second = await list(team.admin.key, `?project=${team.name}/evals&limit=2&after=${first.last_id}`);
    expect(second.data.map((c) => c.id)).toEqual([ids[0]]);
    expect(second.has_more).toBe(false);
    const asc = await list(team.admin.key, `?project=${team.name}/evals&order=asc&after=${ids[0]}`);
    expect(asc.data.map((c) => c.id)).toEqual([ids[1], ids[2]]);
    const foreignCursor = await json(api("GET", `/v1/calls?after=${ids[0]}`, { bearer: other.admin.key }));
    expect(foreignCursor.status).toBe(422);
    expect(foreignCursor.body.detail[0].loc).toEqual(["query", "after"]);
  });

  it("without a project covers every project of the caller's teams, and nothing of other teams", async () => {
    const page = await list(team.member.key, "?limit=100");
    expect(page.data.map((c) => c.id)).toEqual([ids[3], ids[2], ids[1], ids[0]]);
    expect((await list(other.admin.key)).data.map((c: CallDto) => c.project)).toEqual([`${other.name}/evals`]);
  });

  it("filters by model (a trained model's name covers its checkpoints) and status", async () => {
    expect((await list(team.admin.key, "?model=test/tiny")).data).toHaveLength(4);
    expect((await list(team.admin.key, "?model=test/frozen")).data).toHaveLength(0);
    expect((await list(team.admin.key, `?model=${team.name}/p/m`)).data).toHaveLength(0);
    expect((await list(team.admin.key, "?status=success")).data).toHaveLength(4);
    expect((await list(team.admin.key, "?status=error")).data).toHaveLength(0);
    const bad = await json(api("GET", "/v1/calls?status=done", { bearer: team.admin.key }));
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(["query", "status"]);
  });

  it("another team's project is 404, an unknown project of the caller's team 404, an annotator 403", async () => {
    expect((await api("GET", `/v1/calls?project=${other.name}/evals`, { bearer: team.admin.key })).status).toBe(404);
    expect((await api("GET", `/v1/calls?project=${team.name}/nope`, { bearer: team.admin.key })).status).toBe(404);
    expect((await api("GET", `/v1/calls?project=${team.name}/evals`, { bearer: team.annotator.key })).status).toBe(403);
  });
});

describe("GET /v1/calls/{id}", () => {
  it("returns the call with the whole recorded request and response", async () => {
    const res = await json(api("GET", `/v1/calls/${ids[0]}`, { bearer: team.admin.key }));
    expect(res.status).toBe(200);
    const call = callDetailSchema.parse(res.body);
    expect(call).toMatchObject({ id: ids[0], project: `${team.name}/evals`, request: { max_tokens: 3, temperature: 0 }, response: { choices: [expect.objectContaining({ index: 0 })] } });
    expect(call.output).toEqual((call.response!.choices as { message: unknown }[])[0].message);
  });

  it("records a streamed call as the body the same request without stream gets: text, logprobs, token ids", async () => {
    const body = { messages: [{ role: "user", content: "stream me" }], max_tokens: 6, n: 2, seed: 7, temperature: 1, return_token_ids: true };
    const headers = { "svc-project": `${team.name}/evals` };
    const whole = await json(api("POST", "/v1/chat/completions", { bearer: team.member.key, headers, body }));
    expect(whole.status).toBe(200);
    const streamed = await api("POST", "/v1/chat/completions", { bearer: team.member.key, headers, body: { ...body, stream: true } });
    expect(streamed.status).toBe(200);
    expect(await streamed.text()).toContain("data: [DONE]");
    // Read at once: the call is still in the write-behind buffer, and the read writes it first.
    const res = await json(api("GET", `/v1/calls/${streamed.headers.get("anneal-call-id")}`, { bearer: team.admin.key }));
    const call = callDetailSchema.parse(res.body);
    const expected = whole.body as { id: string; created: number; choices: { token_ids: number[]; logprobs: { content: unknown[] } }[] };
    // Logprobs agree to float noise (a sequence's reused KV cache changes the last digits).
    const rounded = (value: unknown) => JSON.parse(JSON.stringify(value), (key, v) => (key === "logprob" ? Number(v.toFixed(4)) : v));
    expect(rounded(call.response)).toEqual({ ...rounded(expected), id: expect.any(String), created: expect.any(Number) });
    expect(expected.choices[0].logprobs.content).toHaveLength(expected.choices[0].token_ids.length);
    expect(call).toMatchObject({ status: "success", usage: { completion_tokens: 12 } });
  });

  it("another team's call and an unknown id are 404; an annotator of the team 403", async () => {
    const [foreign] = (await list(other.admin.key)).data;
    expect((await json(api("GET", `/v1/calls/${foreign.id}`, { bearer: team.admin.key }))).status).toBe(404);
    expect((await json(api("GET", "/v1/calls/00000000-0000-4000-8000-000000000000", { bearer: team.admin.key }))).status).toBe(404);
    expect((await json(api("GET", `/v1/calls/${ids[0]}`, { bearer: team.annotator.key }))).status).toBe(403);
  });
});
