import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { flushCalls, recordCall, type CallRecord } from "@/lib/call-log/call-recorder";
import { getDb } from "@/lib/db/client";
import { createTestTeam, uniqueName } from "./factories";

// The write-behind call recorder on the real database: a batch lands as calls plus usage rollups
// in one statement; a row the database refuses is dropped alone, never with its batch; responses
// are stored in their compact form (stored-output.ts).

function call(projectId: string, model: string, overrides: Partial<CallRecord> = {}): CallRecord {
  const id = randomUUID();
  const startedAt = new Date("2026-11-20T23:59:59.500Z");
  return {
    id, projectId, traceId: id, opName: "chat.completions", requestId: id, model, baseModel: "test/tiny",
    inputs: { messages: [{ role: "user", content: "hi" }] }, output: { choices: [] },
    promptTokens: 10, completionTokens: 5, status: "success", startedAt, endedAt: new Date(startedAt.getTime() + 700), latencyMs: 700,
    ...overrides,
  };
}

describe("call recorder", () => {
  it("writes a batch's calls and adds them to the usage of their UTC day; a refused row is dropped alone", async () => {
    const team = await createTestTeam();
    const project = await getDb().project.create({ data: { teamId: team.id, name: uniqueName("proj") } });
    const model = uniqueName("model");
    const rows = [
      call(project.id, model),
      call(project.id, model, { status: "error", error: "boom", completionTokens: 0, output: undefined }),
      call(project.id, model, { inputs: { messages: [{ role: "user", content: "nul \u0000 here" }] }, startedAt: new Date("2026-11-21T00:00:00.100Z") }),
      call(randomUUID(), model), // no such project: refused by its foreign key
    ];
    for (const row of rows) recordCall(row);
    await flushCalls();

    const stored = await getDb().call.findMany({ where: { projectId: project.id }, orderBy: { startedAt: "asc" } });
    expect(stored.map((c) => c.id).sort()).toEqual(rows.slice(0, 3).map((r) => r.id).sort());
    expect(stored.find((c) => c.id === rows[1].id)).toMatchObject({ status: "error", error: "boom", output: null, latencyMs: 700 });
    expect(JSON.stringify(stored.find((c) => c.id === rows[2].id)!.inputs)).toContain("nul \uFFFD here");
    expect(await getDb().call.count({ where: { id: rows[3].id } })).toBe(0);

    const usage = await getDb().usageDaily.findMany({ where: { projectId: project.id }, orderBy: { day: "asc" } });
    expect(usage.map((u) => ({ day: u.day.toISOString().slice(0, 10), requests: u.requests, errors: u.errors, prompt: u.promptTokens, completion: u.completionTokens }))).toEqual([
      { day: "2026-11-20", requests: 2, errors: 1, prompt: 20, completion: 5 },
      { day: "2026-11-21", requests: 1, errors: 0, prompt: 10, completion: 5 },
    ]);

    // A later batch adds to the same day's rollup.
    recordCall(call(project.id, model));
    await flushCalls();
    const day = await getDb().usageDaily.findFirst({ where: { projectId: project.id, day: new Date("2026-11-20") } });
    expect(day).toMatchObject({ requests: 3, promptTokens: 30, completionTokens: 10 });
  });

  it("stores a response without the logprob bytes that are their token's UTF-8", async () => {
    const team = await createTestTeam();
    const project = await getDb().project.create({ data: { teamId: team.id, name: uniqueName("proj") } });
    const entry = { token: " sea", logprob: -0.5, bytes: [...Buffer.from(" sea")], top_logprobs: [] };
    const output = { choices: [{ index: 0, message: { role: "assistant", content: "*" }, logprobs: { content: [entry] }, finish_reason: "length" }] };
    const row = call(project.id, uniqueName("model"), { output });
    recordCall(row);
    await flushCalls();
    const stored = await getDb().call.findUniqueOrThrow({ where: { id: row.id } });
    expect(stored.output).toEqual({ choices: [{ ...output.choices[0], logprobs: { content: [{ token: " sea", logprob: -0.5, top_logprobs: [] }] } }] });
  });
});
