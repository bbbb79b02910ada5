import type { z } from "zod";
import { getEnv } from "@/lib/config/env";
import { badRequest } from "@/lib/contract/errors";
import { activationBytesPerToken, recomputesForRows } from "@/lib/engine/model/activations";
import { engineLoraConfig } from "@/lib/engine/model/lora-settings";
import { rlTokensPerStep } from "@/lib/training/rl/step-tokens";
import { trainableBase } from "@/lib/training/trainable-base";
import { adapterSize } from "./adapter-size";
import { readBaseShape } from "./base-shape";
import type { trainingEstimateQuery, TrainingEstimate } from "./schemas";
import { BENCH_LORA_SOURCE, estimateTrainingCost } from "./training-cost";

// GET /v1/preview/training-estimate: base models are the instance's, not a team's, so any caller may ask.

export async function estimateTraining(query: z.output<typeof trainingEstimateQuery>): Promise<TrainingEstimate> {
  const base = await trainableBase(query.base_model);
  let shape;
  try {
    shape = readBaseShape(base.gguf);
  } catch (error) {
    throw badRequest(`The base model '${base.name}' cannot be read: ${(error as Error).message}`);
  }
  const adapter = adapterSize(shape.config, { rank: query.rank, target_modules: query.target_modules });
  const lora = engineLoraConfig({ rank: query.rank, alpha: 2 * query.rank, dropout: 0, target_modules: query.target_modules });
  // An RL job's steps are its micro-batches: at most ANNEAL_RL_ROWS_PER_STEP rows and the model's
  // token bound each (padding left out, so this is the fewest it can take).
  const steps = query.rl_rows
    ? Math.max(Math.ceil(query.rl_rows / getEnv().ANNEAL_RL_ROWS_PER_STEP), Math.ceil((query.tokens ?? 0) / rlTokensPerStep(shape.config, lora)))
    : query.steps;
  const cost =
    steps && query.tokens
      ? estimateTrainingCost({
          parameters: shape.parameters, weightType: shape.weightType, weightBytes: shape.weightBytes, adapterParameters: adapter.parameters,
          activationBytesPerToken: (rows) => activationBytesPerToken(shape.config, lora, recomputesForRows(shape.config, lora, rows)),
          steps, tokens: query.tokens,
        })
      : null;
  return {
    base_model: base.name,
    architecture: shape.architecture,
    parameters: shape.parameters,
    weight_type: shape.weightType,
    adapter,
    job: cost && {
      steps: cost.steps, tokens: cost.tokens, tokens_per_step: cost.tokensPerStep, tokens_per_second: cost.tokensPerSecond, seconds: cost.seconds, peak_memory_bytes: cost.peakMemoryBytes,
    },
    basis: BENCH_LORA_SOURCE,
  };
}
