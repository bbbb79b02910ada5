import { randomUUID } from "node:crypto";
import type { Principal } from "@/lib/auth/principal";
import { defaultProjectRef, resolveProject } from "@/lib/auth/projects";
import { projectRefSchema } from "@/lib/auth/names";
import { AppError, badRequest, invalid } from "@/lib/http/errors";
import { recordCall, toStorableJson } from "@/lib/inference/call-recorder";
import type { ChatCompletionRequest } from "@/lib/inference/chat-request";
import type { ChatCompletion } from "@/lib/inference/chat-response";
import { messageText } from "@/lib/inference/chat-template";
import { admit, servingRegistry } from "@/lib/inference/engine";
import { buildPrompt } from "@/lib/inference/prompt";
import { resolveModel } from "@/lib/inference/resolve-model";
import { runChoices, type ChoicePlan } from "@/lib/inference/run-choices";
import { streamChatCompletion } from "@/lib/inference/stream-chat-completion";
import { grammarFor } from "@/lib/inference/structured-output";
import { collectChoices } from "@/lib/inference/collect-choices";

// POST /v1/chat/completions on the embedded engine: attribute to a project, resolve the model,
// render and tokenize the prompt, generate n choices, answer as JSON or as an SSE stream, and
// record the call (write-behind).

export const MAX_LOGPROBS = 20;
const SYSTEM_FINGERPRINT = "anneal-0.1.0";

export interface ChatCompletionContext {
  principal: Principal;
  request: ChatCompletionRequest;
  /** The Svc-Project header: `team/project` to attribute usage to. */
  projectRef?: string;
  requestId: string;
  signal: AbortSignal;
}

/** Parameters the embedded engine cannot honour are refused when not at their default. */
function refuseUnsupported(r: ChatCompletionRequest): void {
  if (r.priority !== 0) throw badRequest(`Got priority ${r.priority} but Priority scheduling is not enabled.`);
  if (r.use_beam_search) throw badRequest("use_beam_search is not supported by the embedded engine.");
  if (r.length_penalty !== 1) throw badRequest("length_penalty only applies to beam search, which the embedded engine does not support.");
  if (r.top_logprobs > MAX_LOGPROBS || r.top_logprobs === -1) {
    throw badRequest(`Requested sample logprobs of ${r.top_logprobs === -1 ? "all" : r.top_logprobs}, which is greater than max allowed: ${MAX_LOGPROBS}`);
  }
  if (r.prompt_logprobs !== undefined) throw badRequest("prompt_logprobs is not supported by the embedded engine yet.");
}

export async function createChatCompletion(ctx: ChatCompletionContext): Promise<ChatCompletion | Response> {
  const { principal, request } = ctx;
  refuseUnsupported(request);
  if (ctx.projectRef !== undefined && !projectRefSchema.safeParse(ctx.projectRef).success) {
    throw invalid(["header", "svc-project"], "Svc-Project must be <team>/<project>.", "string_pattern_mismatch");
  }
  const project = await resolveProject(principal, ctx.projectRef ?? defaultProjectRef(principal), "use");
  const resolved = await resolveModel(principal, request.model);
  const release = admit(resolved.gguf);
  const startedAt = new Date();
  const callId = randomUUID();
  const id = `chatcmpl-${request.request_id ?? ctx.requestId}`;
  try {
    const registry = servingRegistry();
    const model = await registry.model(resolved.gguf).catch((error: unknown) => {
      throw new AppError("unavailable", `Model '${resolved.servedName}' cannot be loaded: ${(error as Error).message}`);
    });
    const prompt = buildPrompt(model, registry.contextSize(model), request);
    const wantLogprobs = request.logprobs ?? resolved.base.trainable; // RL needs them: on unless refused
    const plan: ChoicePlan = {
      registry,
      model,
      resolved,
      request,
      promptTokens: prompt.tokens,
      maxTokens: prompt.maxTokens,
      grammar: grammarFor(request),
      logprobs: wantLogprobs ? { top: request.top_logprobs, asTokenIds: request.return_tokens_as_token_ids ?? resolved.base.trainable } : null,
      signal: ctx.signal,
    };
    const last = request.messages.at(-1)!;
    const echo = request.echo && last.role === "assistant" ? messageText(last, request.messages.length - 1) : "";
    const header = { id, created: Math.floor(startedAt.getTime() / 1000), model: resolved.servedName, systemFingerprint: SYSTEM_FINGERPRINT };
    const record = (output: unknown, completionTokens: number, status: "success" | "error" | "cancelled", error?: string) =>
      recordCall({
        id: callId,
        projectId: project.project.id,
        userId: principal.user.id,
        apiKeyId: principal.apiKey?.id,
        traceId: callId,
        opName: "chat.completions",
        requestId: request.request_id ?? ctx.requestId,
        model: resolved.servedName,
        baseModel: resolved.base.name,
        modelId: resolved.trained?.modelId,
        checkpointStep: resolved.trained?.step,
        inputs: toStorableJson(request),
        output: output === undefined ? undefined : toStorableJson(output),
        promptTokens: prompt.tokens.length,
        completionTokens,
        status,
        error,
        startedAt,
        endedAt: new Date(),
        latencyMs: Date.now() - startedAt.getTime(),
      });
    const callHeaders = { "anneal-call-id": callId, "anneal-call-ref": `svc:///${project.team.name}/${project.project.name}/call/${callId}` };

    if (request.stream) {
      const releaseOnce = release;
      return streamChatCompletion({ plan, header, echo, headers: callHeaders, record, onDone: releaseOnce });
    }
    try {
      const completion = await collectChoices(runChoices(plan), { header, echo, request, promptTokens: prompt.tokens });
      record(completion, completion.usage.completion_tokens, ctx.signal.aborted ? "cancelled" : "success");
      return Response.json(completion, { headers: { "x-request-id": ctx.requestId, ...callHeaders } });
    } catch (error) {
      record(undefined, 0, "error", (error as Error).message);
      throw error;
    } finally {
      release();
    }
  } catch (error) {
    release();
    throw error;
  }
}
