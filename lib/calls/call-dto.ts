// The fields every call carries on the wire, from a row of either read (the list's SQL projection,
// or the whole row of GET one), so both say the same thing the same way.
import type { CallStatus, FeedbackSummary } from "./schemas";

export interface CallFacts {
  id: string;
  teamName: string;
  projectName: string;
  model: string;
  baseModel: string;
  modelId: string | null;
  checkpointStep: number | null;
  status: string;
  error: string | null;
  startedAt: Date;
  endedAt: Date | null;
  latencyMs: number | null;
  promptTokens: number;
  completionTokens: number;
}

/** `svc:///team/project/call/<id>`: what feedback's `svc_ref` names a call by. */
export const callRef = (teamName: string, projectName: string, callId: string) => `svc:///${teamName}/${projectName}/call/${callId}`;

export function callFieldsDto(row: CallFacts, feedback: FeedbackSummary) {
  const project = `${row.teamName}/${row.projectName}`;
  return {
    id: row.id,
    object: "call" as const,
    project,
    ref: callRef(row.teamName, row.projectName, row.id),
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
    feedback,
  };
}
