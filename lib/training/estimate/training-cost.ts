import { activationBytesPerToken } from "@/lib/engine/model/activations";
import type { LlamaConfig } from "@/lib/engine/model/config";
import { DEFAULT_LORA_CONFIG } from "@/lib/engine/model/lora";

// What a LoRA job will cost, estimated from bench:lora's measured numbers (README, "Models and
// inference"; docs/decisions.md, "What a job will cost"). An estimate: the speed depends on the
// machine far more than on the code, so the time is a range between the two machines measured.
//
// Time: a training token costs about a forward and two backward passes through every weight, so
// tokens/s × parameters ("parameter-tokens per second") is roughly constant across sizes; it is read
// from the measured rows for the base's weight type, interpolated in log(parameters) between the two
// measured shapes and held at the nearer one outside them.
// Memory: the base in its file's encoding + the adapter with its gradient and Adam's two moments
// (4 float32 each) + the step's activations as the engine will hold them (lib/engine/model/activations.ts:
// every block's while they fit in 1.5 GiB, else recomputed block by block) + what the run holds
// regardless (the output head's chunk, the runtime), read from the measurement as what the other
// terms leave.

export const BENCH_LORA_SOURCE =
  "npm run bench:lora (README): a LoRA SFT step at rank 16 on every projection, 512 tokens in the loss, 2 vCPUs, random weights in the published shapes; " +
  "fast: a zen4 VM at 94853fc; slow: this repository's CI machine, a Sapphire Rapids VM (README as of ecea3a8)";

type MeasuredWeights = "F16" | "Q8_0";

/** Training tokens/s of one LoRA SFT step (bench:lora). */
export const BENCH_LORA_TRAINING: readonly { shape: string; parameters: number; weights: MeasuredWeights; tokensPerSecond: { fast: number; slow: number } }[] = [
  { shape: "SmolLM2-135M", parameters: 134_515_008, weights: "F16", tokensPerSecond: { fast: 120, slow: 54.5 } },
  { shape: "SmolLM2-135M", parameters: 134_515_008, weights: "Q8_0", tokensPerSecond: { fast: 124, slow: 49.1 } },
  { shape: "Qwen2.5-0.5B", parameters: 494_005_120, weights: "F16", tokensPerSecond: { fast: 44, slow: 20.6 } },
  { shape: "Qwen2.5-0.5B", parameters: 494_005_120, weights: "Q8_0", tokensPerSecond: { fast: 41, slow: 17.0 } },
];

const GIB = 2 ** 30;

/** Peak RSS (VmHWM) of the Qwen2.5-0.5B Q8_0 job at rank 16 on every projection, a process of its own
 *  (zen4, at 94853fc, when every LoRA step recomputed its blocks), at two step sizes. */
export const BENCH_LORA_MEMORY = {
  shape: "Qwen2.5-0.5B",
  config: {
    arch: "qwen2", vocabSize: 151_936, dim: 896, nLayers: 24, nHeads: 14, nKvHeads: 2, ffnDim: 4864, contextLength: 32_768, ropeBase: 1e6, normEps: 1e-6, qkvBias: true, tiedOutput: true,
  } satisfies LlamaConfig,
  /** The Q8_0 file's weights as held (README: ~0.53 GB). */
  weightBytes: 0.53e9,
  /** Rank 16 on every projection: 24 × 366,592. */
  adapterParameters: 8_798_208,
  peaks: [
    { tokensPerStep: 512, bytes: 0.9 * GIB },
    { tokensPerStep: 4096, bytes: 1.79 * GIB },
  ],
} as const;

/** An adapter parameter's value, gradient and Adam's two moments, float32 each. */
const ADAPTER_TRAINING_BYTES = 16;

const measured = BENCH_LORA_MEMORY.peaks[0];
/** What the measured run held besides the base, the adapter's training state and the (recomputed) activations. */
export const RUN_OVERHEAD_BYTES =
  measured.bytes -
  BENCH_LORA_MEMORY.weightBytes -
  ADAPTER_TRAINING_BYTES * BENCH_LORA_MEMORY.adapterParameters -
  measured.tokensPerStep * activationBytesPerToken(BENCH_LORA_MEMORY.config, DEFAULT_LORA_CONFIG, true);

/** The measured row for a stored weight type: quantized types train like Q8_0 (an integer-block
 *  product), float ones (F32, F16, BF16) like F16. */
export const measuredWeightsFor = (weightType: string): MeasuredWeights => (/^(F32|F16|BF16)$/.test(weightType) ? "F16" : "Q8_0");

export interface CostInput {
  /** The base's parameters. */
  parameters: number;
  /** The base's stored weight type (its matrices'), e.g. "Q8_0". */
  weightType: string;
  /** The bytes the base's weights take as stored (about its file's size). */
  weightBytes: number;
  adapterParameters: number;
  /** Activation bytes per token row of a step of this many tokens, as the engine runs it. */
  activationBytesPerToken: (tokensPerStep: number) => number;
  steps: number;
  /** Tokens the job trains on, over every step. */
  tokens: number;
}

export interface CostEstimate {
  steps: number;
  tokens: number;
  tokensPerStep: number;
  /** Tokens/s on the slow and the fast machine measured. */
  tokensPerSecond: { low: number; high: number };
  seconds: { low: number; high: number };
  peakMemoryBytes: number;
}

function parameterTokensPerSecond(parameters: number, weights: MeasuredWeights, machine: "fast" | "slow"): number {
  const rows = BENCH_LORA_TRAINING.filter((r) => r.weights === weights).sort((a, b) => a.parameters - b.parameters);
  const rate = (r: (typeof rows)[number]) => r.tokensPerSecond[machine] * r.parameters;
  const [first, last] = [rows[0], rows[rows.length - 1]];
  if (parameters <= first.parameters) return rate(first);
  if (parameters >= last.parameters) return rate(last);
  const t = Math.log(parameters / first.parameters) / Math.log(last.parameters / first.parameters);
  return rate(first) + t * (rate(last) - rate(first));
}

export function estimateTrainingCost(input: CostInput): CostEstimate {
  const weights = measuredWeightsFor(input.weightType);
  const tokensPerSecond = {
    low: parameterTokensPerSecond(input.parameters, weights, "slow") / input.parameters,
    high: parameterTokensPerSecond(input.parameters, weights, "fast") / input.parameters,
  };
  const tokensPerStep = input.steps > 0 ? Math.ceil(input.tokens / input.steps) : 0;
  const activations = tokensPerStep * input.activationBytesPerToken(tokensPerStep);
  const peakMemoryBytes = input.weightBytes + RUN_OVERHEAD_BYTES + ADAPTER_TRAINING_BYTES * input.adapterParameters + activations;
  return {
    steps: input.steps,
    tokens: input.tokens,
    tokensPerStep,
    tokensPerSecond,
    seconds: { low: input.tokens / tokensPerSecond.high, high: input.tokens / tokensPerSecond.low },
    peakMemoryBytes: Math.round(peakMemoryBytes),
  };
}
