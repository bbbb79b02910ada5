import type { Token } from "node-llama-cpp";
import { promptLogprobs } from "@/lib/engine/serving/prompt-logprobs";
import { AppError, badRequest } from "@/lib/http/errors";
import type { ChatCompletionRequest } from "@/lib/inference/chat-request";
import type { ChatCompletion } from "@/lib/inference/chat-response";
import { messageText } from "@/lib/inference/chat-template";
import { collectChoices } from "@/lib/inference/collect-choices";
import { LOGPROB_FLOOR } from "@/lib/inference/logprob-entry";
import type { Completion } from "@/lib/inference/create-chat-completion";
import { admit, servingRegistry } from "@/lib/inference/engine";
import { buildPrompt } from "@/lib/inference/prompt";
import type { EmbeddedModel } from "@/lib/inference/resolve-model";
import { runChoices, type ChoicePlan } from "@/lib/inference/run-choices";
import { streamChatCompletion } from "@/lib/inference/stream-chat-completion";
import { grammarFor } from "@/lib/inference/structured-output";

// A chat completion on the embedded engine: render and tokenize the prompt, generate the n
// choices, answer as JSON or as an SSE stream.

export const MAX_LOGPROBS = 20;
export const SYSTEM_FINGERPRINT = "anneal-0.1.0";

/** Parameters the embedded engine cannot honour are refused when not at their default. */
function refuseUnsupported(r: ChatCompletionRequest): void {
  if (r.priority !== 0) throw badRequest(`Got priority ${r.priority} but Priority scheduling is not enabled.`);
  if (r.use_beam_search) throw badRequest("use_beam_search is not supported by the embedded engine.");
  if (r.length_penalty !== 1) throw badRequest("length_penalty only applies to beam search, which the embedded engine does not support.");
  for (const [name, value] of [["sample", r.top_logprobs], ["prompt", r.prompt_logprobs ?? 0]] as const) {
    if (value > MAX_LOGPROBS || value === -1) {
      throw badRequest(`Requested ${name} logprobs of ${value === -1 ? "all" : value}, which is greater than max allowed: ${MAX_LOGPROBS}`);
    }
  }
}

/** vLLM's prompt_logprobs: null for the first token, then {"<id>": {logprob, rank, decoded_token}}
 *  holding the prompt's own token and the most likely alternatives. */
async function describePromptLogprobs(plan: ChoicePlan, topLogprobs: number) {
  const entries = await promptLogprobs(plan.registry, { model: plan.resolved.gguf, adapter: plan.resolved.adapter, promptTokens: plan.promptTokens, topLogprobs });
  const decoded = (token: number) => plan.model.detokenize([token as Token], true);
  return entries.map((entry) => {
    if (!entry) return null;
    const out: Record<string, { logprob: number; rank: number; decoded_token: string }> = {};
    entry.top.forEach((t, i) => (out[t.token] = { logprob: Math.max(t.logprob, LOGPROB_FLOOR), rank: i + 1, decoded_token: decoded(t.token) }));
    out[entry.token] = { logprob: Math.max(entry.logprob, LOGPROB_FLOOR), rank: entry.rank, decoded_token: decoded(entry.token) };
    return out;
  });
}

export async function completeOnEmbeddedEngine(completion: Completion, resolved: EmbeddedModel): Promise<ChatCompletion | Response> {
  const { request, signal } = completion.ctx;
  refuseUnsupported(request);
  const release = admit(resolved.gguf);
  let streaming = false;
  let promptTokens = 0;
  try {
    const registry = servingRegistry();
    const model = await registry.model(resolved.gguf).catch((error: unknown) => {
      throw new AppError("unavailable", `Model '${resolved.servedName}' cannot be loaded: ${(error as Error).message}`);
    });
    const prompt = buildPrompt(model, registry.contextSize(model), request);
    promptTokens = prompt.tokens.length;
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
      signal,
    };
    const last = request.messages.at(-1)!;
    const echo = request.echo && last.role === "assistant" ? messageText(last, request.messages.length - 1) : "";
    const header = { id: completion.id, created: completion.created, model: resolved.servedName, systemFingerprint: SYSTEM_FINGERPRINT };

    if (request.stream) {
      streaming = true;
      return streamChatCompletion({
        plan,
        header,
        echo,
        headers: completion.callHeaders,
        record: (output, completionTokens, status, error) => completion.record({ output, promptTokens, completionTokens, status, error }),
        onDone: release,
      });
    }
    const promptLogprobsValue = request.prompt_logprobs === undefined ? null : await describePromptLogprobs(plan, request.prompt_logprobs);
    const body = { ...(await collectChoices(runChoices(plan), { header, echo, request, promptTokens: prompt.tokens })), prompt_logprobs: promptLogprobsValue };
    completion.record({ output: body, promptTokens, completionTokens: body.usage.completion_tokens, status: signal.aborted ? "cancelled" : "success" });
    return Response.json(body, { headers: completion.callHeaders });
  } catch (error) {
    completion.record({ promptTokens, completionTokens: 0, status: "error", error: (error as Error).message });
    throw error;
  } finally {
    if (!streaming) release();
  }
}
