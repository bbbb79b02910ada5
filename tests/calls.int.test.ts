import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordCall, type CallRecord } from "@/lib/call-log/call-recorder";
import { callDetailSchema, callPage } from "@/lib/calls/schemas";
import { getDb } from "@/lib/db/client";
import { api, json } from "./http";
import { createTestTeam, uniqueName } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";

// The call log over HTTP: chat completions made through the API, then listed (newest first,
// cursor pages, project/model/status/time/feedback filters, a projection with previews and a
// feedback summary) and read back whole, right after the responses (the write-behind buffer is
// written before a read); tenancy and roles. Calls with chosen times and contents are recorded
// through the recorder itself.

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
  expect(response.status, await response.clone().text()).toBe(200);
  await response.json();
  return response.headers.get("anneal-call-id")!;
}

async function list(key: string, query = "") {
  const res = await json(api("GET", `/v1/calls${query}`, { bearer: key }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return callPage.parse(res.body);
}

const listedIds = async (key: string, query: string) => (await list(key, query)).data.map((c) => c.id);

async function createProject(teamId: string) {
  return getDb().project.create({ data: { teamId, name: uniqueName("log") } });
}

/** A call recorded through the recorder, with a chosen start time and contents. */
function seedCall(projectId: string, startedAt: string, overrides: Partial<CallRecord> = {}): string {
  const id = randomUUID();
  const started = new Date(startedAt);
  recordCall({
    id, projectId, traceId: id, opName: "chat.completions", requestId: id, model: "test/tiny", baseModel: "test/tiny",
    inputs: { messages: [{ role: "user", content: "hi" }] },
    output: { choices: [{ index: 0, message: { role: "assistant", content: "hello" }, logprobs: null, finish_reason: "stop" }] },
    promptTokens: 4, completionTokens: 2, status: "success", startedAt: started, endedAt: new Date(started.getTime() + 50), latencyMs: 50,
    ...overrides,
  });
  return id;
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
  it("lists a project's calls newest first as a projection: previews, message count, usage, ref, feedback summary", async () => {
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
      message_count: 2,
      preview: { input: "three", output: expect.any(String) },
      feedback: { count: 0, by_type: {}, reactions: {}, annotations: {} },
    });
    // The list never carries the recorded conversation unless asked.
    expect(call).not.toHaveProperty("messages");
    expect(call).not.toHaveProperty("output");
    expect(call.usage.completion_tokens).toBeGreaterThan(0);
    expect(call.usage.total_tokens).toBe(call.usage.prompt_tokens + call.usage.completion_tokens);
    expect(call.latency_ms).toEqual(expect.any(Number));
  });

  it("with include_messages=true also returns the request's messages and the answer's message", async () => {
    const [call] = (await list(team.admin.key, `?project=${team.name}/evals&limit=1&include_messages=true`)).data;
    const detail = callDetailSchema.parse((await json(api("GET", `/v1/calls/${call.id}`, { bearer: team.admin.key }))).body);
    expect(call.messages).toEqual([{ role: "system", content: "Be brief." }, { role: "user", content: "three" }]);
    expect(call.output).toEqual(detail.output);
    expect(call.output).toMatchObject({ role: "assistant", content: expect.any(String) });
    expect(call.preview.output).toBe((call.output!.content as string).slice(0, 200));
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
    for (const after of [ids[0], "not-a-uuid"]) {
      const unknown = await json(api("GET", `/v1/calls?after=${after}`, { bearer: other.admin.key }));
      expect(unknown.status).toBe(422);
      expect(unknown.body.detail[0].loc).toEqual(["query", "after"]);
    }
  });

  it("without a project covers every project of the caller's teams, and nothing of other teams", async () => {
    const page = await list(team.member.key, "?limit=100&model=test/tiny&status=success");
    expect(page.data.map((c) => c.id).filter((id) => ids.includes(id))).toEqual([ids[3], ids[2], ids[1], ids[0]]);
    expect(page.data.every((c) => c.project.startsWith(`${team.name}/`))).toBe(true);
    expect((await list(other.admin.key)).data.map((c) => c.project)).toEqual([`${other.name}/evals`]);
  });

  it("filters by model (a trained model's name covers its checkpoints) and status", async () => {
    const evals = `?project=${team.name}/evals`;
    expect((await list(team.admin.key, `${evals}&model=test/tiny`)).data).toHaveLength(3);
    expect((await list(team.admin.key, `${evals}&model=test/frozen`)).data).toHaveLength(0);
    expect((await list(team.admin.key, `${evals}&model=${team.name}/p/m`)).data).toHaveLength(0);
    expect((await list(team.admin.key, `${evals}&status=success`)).data).toHaveLength(3);
    expect((await list(team.admin.key, `${evals}&status=error`)).data).toHaveLength(0);
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

describe("GET /v1/calls: time range", () => {
  let project: string;
  const at: string[] = [];
  beforeAll(async () => {
    const row = await createProject(team.id);
    project = `${team.name}/${row.name}`;
    for (const time of ["2026-03-01T10:00:00.000Z", "2026-03-01T11:00:00.000Z", "2026-03-01T12:00:00.000Z"]) at.push(seedCall(row.id, time));
  });

  it("start is inclusive, end exclusive; offsets are honoured and a time without one is UTC", async () => {
    const q = `?project=${project}`;
    expect(await listedIds(team.admin.key, `${q}&start=2026-03-01T11:00:00Z`)).toEqual([at[2], at[1]]);
    expect(await listedIds(team.admin.key, `${q}&end=2026-03-01T11:00:00Z`)).toEqual([at[0]]);
    expect(await listedIds(team.admin.key, `${q}&start=2026-03-01T10:00:00.001Z&end=2026-03-01T12:00:00Z`)).toEqual([at[1]]);
    expect(await listedIds(team.admin.key, `${q}&start=${encodeURIComponent("2026-03-01T16:30:00+05:30")}`)).toEqual([at[2], at[1]]);
    expect(await listedIds(team.admin.key, `${q}&end=2026-03-01T10:30:00`)).toEqual([at[0]]);
    // Cursor pages keep the range.
    const first = await list(team.admin.key, `${q}&start=2026-03-01T10:00:00Z&limit=2`);
    expect(first.data.map((c) => c.id)).toEqual([at[2], at[1]]);
    expect(await listedIds(team.admin.key, `${q}&start=2026-03-01T10:00:00Z&limit=2&after=${first.last_id}`)).toEqual([at[0]]);
  });

  it("a date-time that is not one, or an end not after the start, is 422 at the field", async () => {
    for (const [query, field] of [
      ["start=2026-02-30T00:00:00Z", "start"],
      ["start=yesterday", "start"],
      ["end=1969-12-31T23:59:59Z", "end"],
      ["start=2026-03-01T11:00:00Z&end=2026-03-01T11:00:00Z", "end"],
    ]) {
      const res = await json(api("GET", `/v1/calls?${query}`, { bearer: team.admin.key }));
      expect(res.status, query).toBe(422);
      expect(res.body.detail[0].loc).toEqual(["query", field]);
    }
  });
});

describe("GET /v1/calls: previews", () => {
  let project: string;
  const call: Record<string, string> = {};
  beforeAll(async () => {
    const row = await createProject(team.id);
    project = `${team.name}/${row.name}`;
    const answer = (content: unknown) => ({ choices: [{ index: 0, message: { role: "assistant", content }, logprobs: { content: [{ token: "a", logprob: -1, top_logprobs: [] }] }, finish_reason: "stop" }] });
    call.long = seedCall(row.id, "2026-03-02T10:00:00Z", {
      inputs: { messages: [{ role: "user", content: "é".repeat(250) }] },
      output: answer(`${"x".repeat(199)}🙂 and more`),
    });
    call.parts = seedCall(row.id, "2026-03-02T10:00:01Z", {
      inputs: {
        messages: [
          { role: "user", content: "first question" },
          { role: "assistant", content: "an answer" },
          { role: "user", content: [{ type: "text", text: "second " }, { type: "image_url", image_url: { url: "x" } }, { type: "text", text: "question" }] },
          { role: "assistant", content: "prefill" },
        ],
      },
    });
    call.noUser = seedCall(row.id, "2026-03-02T10:00:02Z", { inputs: { messages: [{ role: "system", content: "only a system prompt" }] } });
    call.failed = seedCall(row.id, "2026-03-02T10:00:03Z", { status: "error", error: "boom", output: undefined, completionTokens: 0 });
    call.exact = seedCall(row.id, "2026-03-02T10:00:04Z", { inputs: { messages: [{ role: "user", content: "y".repeat(200) }] } });
  });

  it("cut the last user message's text and the answer's text at 200 characters", async () => {
    const byId = new Map((await list(team.admin.key, `?project=${project}`)).data.map((c) => [c.id, c]));
    expect(byId.get(call.long)).toMatchObject({ message_count: 1, preview: { input: `${"é".repeat(200)}…`, output: `${"x".repeat(199)}🙂…` } });
    expect(byId.get(call.parts)).toMatchObject({ message_count: 4, preview: { input: "second question", output: "hello" } });
    expect(byId.get(call.noUser)!.preview.input).toBe("only a system prompt");
    expect(byId.get(call.failed)).toMatchObject({ status: "error", error: "boom", preview: { input: "hi", output: null } });
    expect(byId.get(call.exact)!.preview.input).toBe("y".repeat(200));
  });
});

describe("GET /v1/calls: feedback", () => {
  let project: { id: string; ref: string };
  const call: Record<string, string> = {};
  const specRefs: Record<string, string> = {};
  const refOf = (id: string) => `svc:///${project.ref}/call/${id}`;

  /** Feedback as a client gives it, through POST /feedback/create. */
  async function addFeedback(callId: string, feedbackType: string, payload: Record<string, unknown>) {
    const spec = feedbackType.startsWith("wandb.annotation.") ? { annotation_ref: specRefs[feedbackType.slice("wandb.annotation.".length)] } : {};
    const res = await json(api("POST", "/feedback/create", { basic: ["api", team.member.key], body: { project_id: project.ref, weave_ref: refOf(callId), feedback_type: feedbackType, payload, ...spec } }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  beforeAll(async () => {
    const row = await createProject(team.id);
    project = { id: row.id, ref: `${team.name}/${row.name}` };
    for (const [name, second] of [["liked", 1], ["disliked", 2], ["scored", 3], ["noted", 4], ["untouched", 5]] as const) {
      call[name] = seedCall(row.id, `2026-03-03T10:00:0${second}Z`);
    }
    for (const spec of [{ name: "quality", type: "numeric", min: 1, max: 5 }, { name: "correct", type: "boolean" }]) {
      const res = await json(api("POST", `/v1/teams/${team.name}/projects/${row.name}/annotation-specs`, { bearer: team.admin.key, body: spec }));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      specRefs[spec.name] = res.body.ref;
    }
    await addFeedback(call.liked, "wandb.reaction.1", { emoji: "👍" });
    await addFeedback(call.liked, "wandb.reaction.1", { emoji: "👍" });
    await addFeedback(call.liked, "wandb.reaction.1", { emoji: "👎" });
    await addFeedback(call.liked, "wandb.note.1", { note: "good" });
    await addFeedback(call.disliked, "wandb.reaction.1", { emoji: "👎" });
    await addFeedback(call.scored, "wandb.annotation.quality", { value: 4 });
    await addFeedback(call.scored, "wandb.annotation.correct", { value: true });
    await addFeedback(call.disliked, "wandb.annotation.quality", { value: 2 });
    await addFeedback(call.noted, "wandb.note.1", { note: "4" });
    await addFeedback(call.noted, "custom.label", { value: "spam" });
    // A row of another project that names this project's call (only a direct write can make one)
    // is not this call's feedback.
    const elsewhere = await createProject(other.id);
    await getDb().feedback.create({ data: { projectId: elsewhere.id, feedbackType: "wandb.reaction.1", payload: { emoji: "👍" }, svcRef: refOf(call.untouched), wbUserId: other.admin.principal.user.id } });
  });

  it("summarises each call's feedback: rows per type, reactions per emoji, annotation values per spec", async () => {
    const page = await list(team.admin.key, `?project=${project.ref}`);
    const byId = new Map(page.data.map((c) => [c.id, c.feedback]));
    expect(byId.get(call.liked)).toEqual({ count: 4, by_type: { "wandb.reaction.1": 3, "wandb.note.1": 1 }, reactions: { "👍": 2, "👎": 1 }, annotations: {} });
    expect(byId.get(call.disliked)).toEqual({ count: 2, by_type: { "wandb.reaction.1": 1, "wandb.annotation.quality": 1 }, reactions: { "👎": 1 }, annotations: { quality: [2] } });
    expect(byId.get(call.scored)).toEqual({ count: 2, by_type: { "wandb.annotation.quality": 1, "wandb.annotation.correct": 1 }, reactions: {}, annotations: { quality: [4], correct: [true] } });
    expect(byId.get(call.untouched)).toEqual({ count: 0, by_type: {}, reactions: {}, annotations: {} });
    const detail = callDetailSchema.parse((await json(api("GET", `/v1/calls/${call.liked}`, { bearer: team.admin.key }))).body);
    expect(detail.feedback).toEqual(byId.get(call.liked));
  });

  it("filters by having feedback, its type (exact or a prefix), its value and a numeric range", async () => {
    const q = (filters: string) => listedIds(team.admin.key, `?project=${project.ref}&${filters}`);
    expect(await q("has_feedback=true")).toEqual([call.noted, call.scored, call.disliked, call.liked]);
    expect(await q("has_feedback=false")).toEqual([call.untouched]);
    expect(await q("feedback_type=wandb.reaction.1")).toEqual([call.disliked, call.liked]);
    expect(await q("feedback_type=wandb.annotation.*")).toEqual([call.scored, call.disliked]);
    expect(await q(`feedback_type=wandb.reaction.1&feedback_value=${encodeURIComponent("👎")}`)).toEqual([call.disliked, call.liked]);
    expect(await q(`feedback_type=wandb.reaction.1&feedback_value=${encodeURIComponent("👍")}`)).toEqual([call.liked]);
    // A reaction type without a row of it: the calls nobody reacted to.
    expect(await q("feedback_type=wandb.reaction.1&has_feedback=false")).toEqual([call.untouched, call.noted, call.scored]);
    // Values: a number matches another spelling of it; booleans and strings by their text; a
    // note's text is not a value.
    expect(await q("feedback_type=wandb.annotation.quality&feedback_value=4")).toEqual([call.scored]);
    expect(await q("feedback_value=4.00")).toEqual([call.scored]);
    expect(await q("feedback_value=true")).toEqual([call.scored]);
    expect(await q("feedback_value=spam")).toEqual([call.noted]);
    expect(await q("feedback_type=wandb.annotation.quality&feedback_min=3")).toEqual([call.scored]);
    expect(await q("feedback_type=wandb.annotation.quality&feedback_max=3")).toEqual([call.disliked]);
    expect(await q("feedback_min=2&feedback_max=4")).toEqual([call.scored, call.disliked]);
    // Combined with the other filters and with cursor pages.
    expect(await q("has_feedback=true&start=2026-03-03T10:00:02Z&end=2026-03-03T10:00:04Z")).toEqual([call.scored, call.disliked]);
    const first = await list(team.admin.key, `?project=${project.ref}&has_feedback=true&limit=3`);
    expect(await q(`has_feedback=true&limit=3&after=${first.last_id}`)).toEqual([call.liked]);
  });

  it("bad feedback filters are 422 at the field", async () => {
    for (const [query, field] of [
      ["has_feedback=yes", "has_feedback"],
      ["feedback_type=", "feedback_type"],
      ["feedback_min=abc", "feedback_min"],
      ["feedback_min=5&feedback_max=1", "feedback_max"],
      [`feedback_value=${"v".repeat(1025)}`, "feedback_value"],
    ]) {
      const res = await json(api("GET", `/v1/calls?${query}`, { bearer: team.admin.key }));
      expect(res.status, query).toBe(422);
      expect(res.body.detail[0].loc).toEqual(["query", field]);
    }
  });
});

describe("GET /v1/calls/{id}", () => {
  it("returns the call with the whole recorded request and response", async () => {
    const res = await json(api("GET", `/v1/calls/${ids[0]}`, { bearer: team.admin.key }));
    expect(res.status).toBe(200);
    const call = callDetailSchema.parse(res.body);
    expect(call).toMatchObject({ id: ids[0], project: `${team.name}/evals`, request: { max_tokens: 3, temperature: 0 }, response: { choices: [expect.objectContaining({ index: 0 })] } });
    expect(call.messages).toEqual([{ role: "system", content: "Be brief." }, { role: "user", content: "one" }]);
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
