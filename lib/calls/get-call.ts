// GET /v1/calls/{id}: one recorded call with its whole request and response (logprobs' bytes put
// back, stored-output.ts) and its feedback summary. Another team's call is a 404; annotators
// (no "use") are 403 — they reach the calls of their annotation items through the queues.
import type { Principal } from "@/lib/auth/principal";
import { requireInReach } from "@/lib/auth/team-access";
import { flushCalls } from "@/lib/call-log/call-recorder";
import { isJsonObject, type JsonObject } from "@/lib/call-log/json-object";
import { fromStoredOutput } from "@/lib/call-log/stored-output";
import { notFound } from "@/lib/contract/errors";
import { getDb } from "@/lib/db/client";
import { callFieldsDto, callRef } from "./call-dto";
import { summarizeFeedback } from "./feedback-summary";
import type { CallDetailDto } from "./schemas";

/** The first choice's message of a recorded response (JSON or the streamed answer). */
function firstMessage(output: unknown): JsonObject | null {
  if (!isJsonObject(output) || !Array.isArray(output.choices)) return null;
  const choice = (output.choices as unknown[]).find((c) => isJsonObject(c) && (c.index ?? 0) === 0) ?? output.choices[0];
  return isJsonObject(choice) && isJsonObject(choice.message) ? choice.message : null;
}

const WITH_PROJECT = { project: { select: { name: true, teamId: true, team: { select: { name: true } } } } } as const;

/** A call's row with what its detail needs, or null; whether the caller may read it is the caller's to check. */
const findCallRow = (callId: string) => getDb().call.findUnique({ where: { id: callId }, include: WITH_PROJECT });
type CallRow = NonNullable<Awaited<ReturnType<typeof findCallRow>>>;

/** A call as GET /v1/calls/{id} returns it (annotation queues give annotators their items' calls the same way). */
export async function callDetail(row: CallRow): Promise<CallDetailDto> {
  const facts = { ...row, teamName: row.project.team.name, projectName: row.project.name };
  const ref = callRef(facts.teamName, facts.projectName, row.id);
  const summaries = await summarizeFeedback([{ projectId: row.projectId, ref }]);
  const inputs = isJsonObject(row.inputs) ? row.inputs : {};
  return {
    ...callFieldsDto(facts, summaries.get(ref)!),
    messages: Array.isArray(inputs.messages) ? (inputs.messages as unknown[]).filter(isJsonObject) : [],
    output: firstMessage(row.output),
    request: inputs,
    response: isJsonObject(row.output) ? (fromStoredOutput(row.output) as JsonObject) : null,
  };
}

export async function getCall(principal: Principal, callId: string): Promise<CallDetailDto> {
  await flushCalls();
  const row = await requireInReach(principal, await findCallRow(callId), (r) => r.project.teamId, "use", () => notFound(`Call '${callId}' not found.`));
  return callDetail(row);
}
