import type { Token } from "node-llama-cpp";
import type { ModelRegistry } from "@/lib/engine/serving/model-registry";
import { promptLogprobs } from "@/lib/engine/serving/prompt-logprobs";
import { AppError } from "@/lib/http/errors";
import { LOGPROB_FLOOR } from "@/lib/inference/logprob-entry";
import { buildPrompt } from "@/lib/inference/prompt";
import type { ChoicePlan } from "@/lib/inference/run-choices";
import { grammarFor } from "@/lib/inference/structured-output";
import type { CompletionJob, PreparedCompletion, PromptLogprobs } from "./messages";

// On the engine thread: a job's model loaded, its prompt rendered and tokenized (and scored, with
// prompt_logprobs), and the plan its choices are generated from.

export async function prepareCompletion(registry: ModelRegistry, job: CompletionJob, signal: AbortSignal): Promise<{ prepared: PreparedCompletion; plan: ChoicePlan }> {
  const { request } = job;
  const model = await registry.model(job.gguf).catch((error: unknown) => {
    throw new AppError("unavailable", `Model '${job.servedName}' cannot be loaded: ${(error as Error).message}`);
  });
  const prompt = buildPrompt(model, registry.contextSize(model), request);
  const wantLogprobs = request.logprobs ?? job.trainable;
  const plan: ChoicePlan = {
    registry,
    model,
    gguf: job.gguf,
    adapter: job.adapter,
    request,
    promptTokens: prompt.tokens,
    maxTokens: prompt.maxTokens,
    grammar: grammarFor(request),
    logprobs: wantLogprobs ? { top: request.top_logprobs, asTokenIds: request.return_tokens_as_token_ids ?? job.trainable } : null,
    signal,
  };
  const prepared: PreparedCompletion = { promptTokens: prompt.tokens, maxTokens: prompt.maxTokens };
  if (!request.stream && request.prompt_logprobs !== undefined) prepared.promptLogprobs = await describePromptLogprobs(plan, request.prompt_logprobs);
  return { prepared, plan };
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
