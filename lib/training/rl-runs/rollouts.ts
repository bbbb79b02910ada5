// An iteration's rollouts, in-process on the embedded engine (no HTTP round trip, no recorded
// call): n completions of each prompt from the model's newest checkpoint, with logprobs as token
// ids (what the RL job trains on, exactly as sampled), scored by the run's checker.
import { getDb } from "@/lib/db/client";
import { baseModelCatalogue, findBaseModel } from "@/lib/inference/base-models";
import { chatCompletionRequestSchema } from "@/lib/inference/chat-request";
import { collectChoices } from "@/lib/inference/collect-choices";
import { SYSTEM_FINGERPRINT } from "@/lib/inference/embedded-completion";
import { embeddedEngine } from "@/lib/inference/engine";
import type { CompletionJob } from "@/lib/inference/engine-thread/messages";
import type { Scorer } from "@/lib/training/checkers/checker-config";
import { absoluteCheckpointPath } from "@/lib/training/jobs/job-files";
import type { RunPrompt } from "./schemas";

export interface RolloutWeights {
  step: number;
  engine: Omit<CompletionJob, "request">;
}

/** The weights the model serves now: its newest checkpoint, else its base model. */
export async function currentWeights(modelId: string): Promise<RolloutWeights> {
  const model = await getDb().model.findUniqueOrThrow({ where: { id: modelId }, include: { project: { include: { team: true } } } });
  const base = findBaseModel((await baseModelCatalogue()).models, model.baseModel);
  if (!base || base.kind !== "gguf") throw new Error(`The base model '${model.baseModel}' is not served by the embedded engine on this instance.`);
  const latest = await getDb().checkpoint.findFirst({ where: { modelId }, orderBy: { step: "desc" } });
  const step = latest?.step ?? 0;
  const servedName = `${model.project.team.name}/${model.project.name}/${model.name}:step${step}`;
  const weights = !latest
    ? { gguf: base.gguf }
    : latest.format === "lora"
      ? { gguf: base.gguf, adapter: { path: absoluteCheckpointPath(latest.file) } }
      : { gguf: absoluteCheckpointPath(latest.file) };
  return { step, engine: { ...weights, servedName, trainable: base.trainable } };
}

/** A trajectory group as POST /v1/preview/training-jobs takes it: the prompt, then the Choice. */
export interface RolloutGroup {
  trajectories: { messages_and_choices: unknown[]; reward: number }[];
}

export interface RolloutOptions {
  weights: RolloutWeights;
  n: number;
  temperature: number;
  maxTokens: number;
  /** The request's sampling seed; undefined samples at random. */
  seed: number | undefined;
  score: Scorer;
  signal: AbortSignal;
}

/** One prompt's group: n sampled Choices (as a chat completion returns them), each with its reward. */
export async function rolloutGroup(prompt: RunPrompt, o: RolloutOptions): Promise<RolloutGroup> {
  const request = chatCompletionRequestSchema.parse({
    messages: prompt.messages,
    n: o.n,
    temperature: o.temperature,
    max_tokens: o.maxTokens,
    seed: o.seed,
    logprobs: true,
    return_tokens_as_token_ids: true,
  });
  const run = embeddedEngine().start({ ...o.weights.engine, request }, o.signal);
  const prepared = await run.prepared;
  const header = { id: "rl-run-rollout", created: Math.floor(Date.now() / 1000), model: o.weights.engine.servedName, systemFingerprint: SYSTEM_FINGERPRINT };
  const completion = await collectChoices(run.events(), { header, echo: prepared.echo, request, promptTokens: prepared.promptTokens });
  return {
    trajectories: completion.choices.map((choice) => ({
      messages_and_choices: [...prompt.messages, choice],
      reward: o.score(choice.message.content ?? "", prompt.reference),
    })),
  };
}
