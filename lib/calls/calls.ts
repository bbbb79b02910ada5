// Recorded calls as callers read them: a cursor page over the projects they may use, and one call.
// Calls are recorded write-behind; a read first writes what this process still holds, so a call is
// there as soon as its response has ended (its id is in the response's headers).
// Another team's call is a 404; annotators (no "use") are 403 — they reach the calls of their
// annotation items through the queues, not here.
import type { Principal } from "@/lib/auth/principal";
import { resolveProject } from "@/lib/auth/projects";
import { requireInReach, teamIdsAllowing } from "@/lib/auth/team-access";
import { isJsonObject, type JsonObject } from "@/lib/calls/json-object";
import { fromStoredOutput } from "@/lib/calls/stored-output";
import { getDb } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { notFound } from "@/lib/http/errors";
import { isUuid, toPage, unknownCursor, type Page } from "@/lib/http/pagination";
import { flushCalls } from "@/lib/inference/call-recorder";
import type { CallDetailDto, CallDto, CallStatus, ListCallsQuery } from "./schemas";

const PROJECT = { project: { select: { name: true, team: { select: { name: true } } } } } as const;
type CallRow = Prisma.CallGetPayload<{ include: typeof PROJECT }>;


/** The first choice's message of a recorded response (JSON or the streamed answer). */
function firstMessage(output: unknown): JsonObject | null {
  if (!isJsonObject(output) || !Array.isArray(output.choices)) return null;
  const choice = (output.choices as unknown[]).find((c) => isJsonObject(c) && (c.index ?? 0) === 0) ?? output.choices[0];
  return isJsonObject(choice) && isJsonObject(choice.message) ? choice.message : null;
}

function toCallDto(row: CallRow): CallDto {
  const project = `${row.project.team.name}/${row.project.name}`;
  const inputs = isJsonObject(row.inputs) ? row.inputs : {};
  return {
    id: row.id,
    object: "call",
    project,
    ref: `svc:///${project}/call/${row.id}`,
    model: row.model,
    base_model: row.baseModel,
    model_id: row.modelId,
    checkpoint_step: row.checkpointStep,
    status: row.status as CallStatus,
    error: row.error,
    created_at: row.startedAt.toISOString(),
    ended_at: row.endedAt?.toISOString() ?? null,
    latency_ms: row.latencyMs,
    usage: { prompt_tokens: row.promptTokens, completion_tokens: row.completionTokens, total_tokens: row.promptTokens + row.completionTokens },
    messages: Array.isArray(inputs.messages) ? (inputs.messages as unknown[]).filter(isJsonObject) : [],
    output: firstMessage(row.output),
  };
}

/** Which projects a listing covers: one named project (404 unknown, 403 an annotator's team), or
 *  every project of the teams where the caller may use things. */
async function listingScope(principal: Principal, query: ListCallsQuery): Promise<Prisma.CallWhereInput> {
  if (query.project) {
    const { project } = await resolveProject(principal, query.project, "use", { createIfMissing: false });
    return { projectId: project.id };
  }
  return { project: { teamId: { in: await teamIdsAllowing(principal, "use") } } };
}

/** A trained model's name without `:stepN` matches every checkpoint of it. */
function modelFilter(model: string): Prisma.CallWhereInput {
  return /:step\d+$/.test(model) ? { model } : { OR: [{ model }, { model: { startsWith: `${model}:step` } }] };
}

/** GET /v1/calls: newest first by default, keyset on (startedAt, id). */
export async function listCalls(principal: Principal, query: ListCallsQuery): Promise<Page<CallDto>> {
  await flushCalls();
  const scope = await listingScope(principal, query);
  const filters: Prisma.CallWhereInput[] = [scope];
  if (query.model) filters.push(modelFilter(query.model));
  if (query.status) filters.push({ status: query.status });
  const db = getDb();
  if (query.after) {
    const cursor = isUuid(query.after) ? await db.call.findFirst({ where: { AND: [scope, { id: query.after }] }, select: { id: true, startedAt: true } }) : null;
    if (!cursor) throw unknownCursor(query.after);
    const op = query.order === "asc" ? "gt" : "lt";
    filters.push({ OR: [{ startedAt: { [op]: cursor.startedAt } }, { startedAt: cursor.startedAt, id: { [op]: cursor.id } }] });
  }
  const rows = await db.call.findMany({
    where: { AND: filters },
    orderBy: [{ startedAt: query.order }, { id: query.order }],
    take: query.limit + 1,
    include: PROJECT,
  });
  const page = toPage(rows, query.limit);
  return { ...page, data: page.data.map(toCallDto) };
}

/** GET /v1/calls/{id}: the call with its whole request and response. */
export async function getCall(principal: Principal, callId: string): Promise<CallDetailDto> {
  await flushCalls();
  const found = await getDb().call.findUnique({ where: { id: callId }, include: { project: { select: { name: true, teamId: true, team: { select: { name: true } } } } } });
  const row = await requireInReach(principal, found, (r) => r.project.teamId, "use", () => notFound(`Call '${callId}' not found.`));
  return {
    ...toCallDto(row),
    request: isJsonObject(row.inputs) ? row.inputs : {},
    response: isJsonObject(row.output) ? (fromStoredOutput(row.output) as JsonObject) : null,
  };
}
