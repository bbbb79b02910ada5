import type { Token } from "node-llama-cpp";
import type { ModelRegistry } from "@/lib/engine/serving/model-registry";
import { promptLogprobs } from "@/lib/engine/serving/prompt-logprobs";
import { AppError, badRequest } from "@/lib/contract/errors";
import { messageText } from "./chat-template";
import { LOGPROB_FLOOR } from "./logprob-entry";
import { buildPrompt } from "./prompt";
import type { ChoicePlan } from "./run-choices";
import { compileStructuredOutput } from "./structured-output";
import { checkTokenIds } from "./token-ids";
import type { CompletionJob, PreparedCompletion, PromptLogprobs } from "./messages";

// On the engine thread: a job's model loaded, its prompt rendered and tokenized (and scored, with
// prompt_logprobs), and the plan its choices are generated from.

export async function prepareCompletion(registry: ModelRegistry, job: CompletionJob, signal: AbortSignal): Promise<{ prepared: PreparedCompletion; plan: ChoicePlan }> {
  const { request } = job;
  const model = await registry.model(job.gguf, { trainable: job.trainable }).catch((error: unknown) => {
    throw new AppError("unavailable", `Model '${job.servedName}' cannot be loaded: ${(error as Error).message}`);
  });
  checkTokenIds(model, request);
  const contextSize = registry.contextSize(model);
  refuseOutputBeyondContext(request, contextSize);
  const prompt = buildPrompt(model, contextSize, request);
  const wantLogprobs = request.logprobs ?? job.trainable;
  const plan: ChoicePlan = {
    registry,
    model,
    gguf: job.gguf,
    adapter: job.adapter,
    request,
    promptTokens: prompt.tokens,
    maxTokens: prompt.maxTokens,
    grammar: await compileStructuredOutput(model.llama, request),
    logprobs: wantLogprobs ? { top: request.top_logprobs, asTokenIds: request.return_tokens_as_token_ids ?? job.trainable } : null,
    signal,
  };
  const last = request.messages.at(-1)!;
  const echo = request.echo && last.role === "assistant" ? messageText(last, request.messages.length - 1) : "";
  const prepared: PreparedCompletion = { promptTokens: prompt.tokens, maxTokens: prompt.maxTokens, echo };
  if (!request.stream && request.prompt_logprobs !== undefined) prepared.promptLogprobs = await describePromptLogprobs(plan, request.prompt_logprobs);
  return { prepared, plan };
}

/** An output budget that alone fills the context leaves no room for any prompt: refused before
 *  the prompt is rendered, saying so (the model serves at most its trained context). */
function refuseOutputBeyondContext(request: CompletionJob["request"], contextSize: number): void {
  const field = request.max_completion_tokens !== undefined ? "max_completion_tokens" : "max_tokens";
  const requested = request.max_completion_tokens ?? request.max_tokens;
  if (requested !== undefined && requested >= contextSize) {
    throw badRequest(`${field} is ${requested}, but the model's context length is only ${contextSize} tokens, which must also hold the prompt. Please request fewer output tokens.`);
  }
}

async function describePromptLogprobs(plan: ChoicePlan, topLogprobs: number): Promise<PromptLogprobs> {
  const entries = await promptLogprobs(plan.registry, { model: plan.gguf, adapter: plan.adapter, promptTokens: plan.promptTokens, topLogprobs });
  const decoded = (token: number) => plan.model.detokenize([token as Token], true);
  return entries.map((entry) => {
    if (!entry) return null;
    const out: Record<string, { logprob: number; rank: number; decoded_token: string }> = {};
    entry.top.forEach((t, i) => (out[t.token] = { logprob: Math.max(t.logprob, LOGPROB_FLOOR), rank: i + 1, decoded_token: decoded(t.token) }));
    out[entry.token] = { logprob: Math.max(entry.logprob, LOGPROB_FLOOR), rank: entry.rank, decoded_token: decoded(entry.token) };
    return out;
  });
}
