// The float32 llama model that Anneal trains: token embedding → nLayers blocks → output_norm →
// output head → per-token log π(target) and entropy. Forward keeps every activation; backward
// takes the gradient of any per-token objective w.r.t. those log-probs (and entropies) and
// accumulates weight gradients into params.grads. Shapes: B sequences of T tokens, M = B·T rows.
//
// Usage (SFT; RL is the same with its own dLogprobs):
//   const model = new LlamaModel(config, { seed: 1 });
//   const { logprobs } = model.forward({ tokens, targets, batchSize: B, seqLen: T });
//   const loss = tokenCrossEntropy(logprobs, mask, dLogprobs);
//   model.params.zeroGrads(); model.backward(dLogprobs);
//   clipGradNorm(model.params.grads, 1); optimizer.step(lr);
import { defaultKernels, type Kernels } from "../kernels";
import { Activations } from "./activations";
import { blockBackward, blockForward, blockTensors, type BlockContext, type BlockTensors } from "./block";
import { headDim, type LlamaConfig, type LlamaWeights } from "./config";
import { initWeights } from "./init-weights";
import { embeddingBackward, embeddingForward } from "./layers/embedding";
import { linearBackward, linearForward } from "./layers/linear";
import { ropeTable, type RopeTable } from "./layers/rope";
import { ParameterSet } from "./parameters";

/**
 * B sequences of T tokens, row-major [B,T]. targets[b,t] is the token whose log-prob position t
 * reports (normally tokens[b,t+1]), or −1 for none. Sequences are right-padded: attention is
 * causal, so padding after a sequence's last real token cannot change its earlier positions.
 */
export interface TokenBatch {
  tokens: Int32Array;
  targets: Int32Array;
  batchSize: number;
  seqLen: number;
}

/** Views into the model's buffers: valid until the next forward (logits: until backward). */
export interface ForwardResult {
  /** [M] log π(target) per position; 0 where target is −1. */
  logprobs: Float32Array;
  /** [M] entropy of the predicted distribution per position (nats). */
  entropies: Float32Array;
  /** [M,V] raw logits. */
  logits: Float32Array;
}

export interface LlamaModelOptions {
  /** Initialise deterministically from this seed (default 1) unless weights are given. */
  seed?: number;
  /** Start from these weights (e.g. read from a GGUF checkpoint) instead of a fresh init. */
  weights?: LlamaWeights;
  /** Kernel implementation; defaults to the process-wide choice (native if built, else TypeScript). */
  kernels?: Kernels;
}

export function validateConfig(c: LlamaConfig): void {
  const problems = [
    c.dim % c.nHeads !== 0 && "dim must be a multiple of nHeads",
    headDim(c) % 2 !== 0 && "head dimension must be even for RoPE",
    c.nHeads % c.nKvHeads !== 0 && "nHeads must be a multiple of nKvHeads",
  ].filter(Boolean);
  if (problems.length) throw new Error(`invalid LlamaConfig: ${problems.join("; ")}`);
}

export class LlamaModel {
  readonly config: LlamaConfig;
  readonly params: ParameterSet;
  readonly kernels: Kernels;
  private readonly rope: RopeTable;
  private readonly weights: BlockTensors[];
  private readonly gradients: BlockTensors[];
  private activations: Activations | null = null;
  /** The forward pass backward will differentiate; cleared by backward (it consumes the logits). */
  private pending: { batch: TokenBatch; ctx: BlockContext } | null = null;

  constructor(config: LlamaConfig, options: LlamaModelOptions = {}) {
    validateConfig(config);
    this.config = config;
    this.kernels = options.kernels ?? defaultKernels();
    this.params = ParameterSet.forModel(config);
    if (options.weights) this.params.load(options.weights);
    else initWeights(this.params, config, options.seed ?? 1);
    this.rope = ropeTable(config.contextLength, headDim(config), config.ropeBase);
    this.weights = Array.from({ length: config.nLayers }, (_, l) => blockTensors(this.params, l, "value"));
    this.gradients = Array.from({ length: config.nLayers }, (_, l) => blockTensors(this.params, l, "grad"));
  }

  forward(batch: TokenBatch): ForwardResult {
    this.checkBatch(batch);
    const c = this.config;
    const { batchSize: B, seqLen: T, tokens, targets } = batch;
    const M = B * T;
    if (!this.activations || this.activations.rows < M) this.activations = new Activations(c, M);
    const a = this.activations;
    const ctx: BlockContext = {
      kernels: this.kernels, config: c, rope: this.rope,
      attention: { batch: B, seqLen: T, nHeads: c.nHeads, nKvHeads: c.nKvHeads, headDim: headDim(c) },
    };

    embeddingForward(a.residual[0], this.params.value("token_embd.weight"), tokens, M, c.dim);
    for (let l = 0; l < c.nLayers; l++) blockForward(ctx, this.weights[l], a.blocks[l], a.residual[l], a.residual[l + 1]);
    this.kernels.rmsnormForward(a.xnFinal, a.rstdFinal, a.residual[c.nLayers], this.params.value("output_norm.weight"), M, c.dim, c.normEps);
    linearForward(this.kernels, a.logits, a.xnFinal, this.params.value("output.weight"), M, c.dim, c.vocabSize);
    this.kernels.tokenLogprobsForward(a.logprobs, a.entropies, a.logitsLse, a.logits, targets, M, c.vocabSize);

    this.pending = { batch, ctx };
    return {
      logprobs: a.logprobs.subarray(0, M),
      entropies: a.entropies.subarray(0, M),
      logits: a.logits.subarray(0, M * c.vocabSize),
    };
  }

  /**
   * Accumulates ∂L/∂weights into params.grads (call params.zeroGrads() first for a fresh step;
   * skip it to accumulate micro-batches). dLogprobs[M] = ∂L/∂log π(target) per position (zero for
   * untrained ones); dEntropies[M], if given, = ∂L/∂entropy (for an entropy bonus). Runs once per
   * forward: it turns the logits into their gradient in place.
   */
  backward(dLogprobs: Float32Array, dEntropies: Float32Array | null = null): void {
    if (!this.pending || !this.activations) throw new Error("backward needs a forward pass first (one backward per forward)");
    const { batch, ctx } = this.pending;
    this.pending = null;
    const c = this.config;
    const a = this.activations;
    const M = batch.batchSize * batch.seqLen;
    if (dLogprobs.length !== M || (dEntropies && dEntropies.length !== M))
      throw new Error(`backward expects ${M} per-token gradients (batchSize·seqLen)`);

    this.kernels.tokenLogprobsBackward(a.logits, a.logitsLse, a.entropies, batch.targets, dLogprobs, dEntropies, M, c.vocabSize);
    const dxn = a.scratch.dxn;
    linearBackward(this.kernels, dxn, this.params.grad("output.weight"), a.logits, a.xnFinal, this.params.value("output.weight"), M, c.dim, c.vocabSize, false);
    a.dResidual.fill(0, 0, M * c.dim);
    this.kernels.rmsnormBackward(a.dResidual, this.params.grad("output_norm.weight"), dxn, a.residual[c.nLayers], this.params.value("output_norm.weight"), a.rstdFinal, M, c.dim);
    for (let l = c.nLayers - 1; l >= 0; l--)
      blockBackward(ctx, this.weights[l], this.gradients[l], a.blocks[l], a.residual[l], a.dResidual, a.scratch);
    embeddingBackward(this.params.grad("token_embd.weight"), a.dResidual, batch.tokens, M, c.dim);
  }

  private checkBatch({ tokens, targets, batchSize: B, seqLen: T }: TokenBatch): void {
    const c = this.config;
    if (!(B > 0 && T > 0)) throw new Error("batchSize and seqLen must be positive");
    if (T > c.contextLength) throw new Error(`seqLen ${T} exceeds the context length ${c.contextLength}`);
    if (tokens.length !== B * T || targets.length !== B * T) throw new Error(`tokens and targets must hold batchSize·seqLen = ${B * T} ids`);
    for (let i = 0; i < B * T; i++) {
      // Out-of-range ids would read outside the embedding/logits rows: reject them here.
      if (!(tokens[i] >= 0 && tokens[i] < c.vocabSize)) throw new Error(`token ${tokens[i]} at ${i} is outside the vocabulary`);
      if (!(targets[i] >= -1 && targets[i] < c.vocabSize)) throw new Error(`target ${targets[i]} at ${i} is outside the vocabulary`);
    }
  }
}
