import { randomUUID } from "node:crypto";
import { projectRefSchema } from "@/lib/auth/names";
import { defaultProjectRef, resolveProject } from "@/lib/auth/projects";
import { recordCall } from "@/lib/call-log/call-recorder";
import { invalid } from "@/lib/contract/errors";
import type { ChatCompletion } from "@/lib/inference/chat-response";
import { completeOnEmbeddedEngine } from "@/lib/inference/embedded-completion";
import type { ChatCompletionContext, Completion } from "@/lib/inference/completion";
import { resolveModel } from "@/lib/inference/resolve-model";
import { completeOnUpstream } from "@/lib/inference/upstream-completion";

// POST /v1/chat/completions: resolve the model, attribute the call to a project (Svc-Project, else a
// trained model's own project, else the caller's default), run it on the embedded engine or pass it to an upstream server,
// and record the call (committed before the response ends on PostgreSQL: call-recorder.ts).

export async function createChatCompletion(ctx: ChatCompletionContext): Promise<ChatCompletion | Response> {
  const { principal, request } = ctx;
  if (ctx.projectRef !== undefined && !projectRefSchema.safeParse(ctx.projectRef).success) {
    throw invalid(["header", "svc-project"], "Svc-Project must be <team>/<project>.", "string_pattern_mismatch");
  }
  const resolved = await resolveModel(principal, request.model);
  // Recorded in Svc-Project's project; without it, a trained model's calls go to its own project and a
  // base model's to the caller's default (docs/contract.md "Inference names").
  const project = await resolveProject(principal, ctx.projectRef ?? resolved.trained?.project ?? (await defaultProjectRef(principal)), "use");
  const startedAt = new Date();
  const callId = randomUUID();
  const requestId = request.request_id ?? ctx.requestId;
  const completion: Completion = {
    ctx,
    resolved,
    id: `chatcmpl-${requestId}`,
    created: Math.floor(startedAt.getTime() / 1000),
    callHeaders: {
      "x-request-id": ctx.requestId,
      "anneal-call-id": callId,
      "anneal-call-ref": `svc:///${project.team.name}/${project.project.name}/call/${callId}`,
    },
    record: (outcome) =>
      recordCall({
        id: callId,
        projectId: project.project.id,
        userId: principal.user.id,
        apiKeyId: principal.apiKey?.id,
        traceId: callId,
        opName: "chat.completions",
        requestId,
        model: resolved.servedName,
        baseModel: resolved.base.name,
        modelId: resolved.trained?.modelId,
        checkpointStep: resolved.trained?.step,
        inputs: request,
        output: outcome.output,
        promptTokens: outcome.promptTokens,
        completionTokens: outcome.completionTokens,
        status: outcome.status,
        error: outcome.error,
        startedAt,
        endedAt: new Date(),
        latencyMs: Date.now() - startedAt.getTime(),
      }),
  };
  return "gguf" in resolved ? completeOnEmbeddedEngine(completion, resolved) : completeOnUpstream(completion, resolved);
}
