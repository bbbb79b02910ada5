// The float32 llama model that Anneal trains: token embedding → nLayers blocks → output_norm →
// output head → per-token log π(target) and entropy. Forward keeps what backward needs (every
// block's activations, or only each block's input with recompute); backward takes the gradient of
// any per-token objective w.r.t. those log-probs (and entropies) and accumulates gradients into
// params.grads. The head runs a bounded chunk of positions at a time, and only where a position has
// a target (layers/output-head.ts). Shapes: B sequences of T tokens, M = B·T rows.
//
// Two modes. Full: params holds every weight and all of them train. LoRA (options.lora): the
// weights sit in a frozen set (base, no gradient buffer) and params holds only the adapters, so the
// optimizer, clipping, zeroing and saved states act on adapters alone; backward flows through the
// frozen layers (embedding, norms, head included) without computing their weight gradients.
//
// The config's architecture (config.ts) may be Anneal's plain llama or a real checkpoint's (qwen2's
// biases, qwen3's q/k norms and wide heads, NEOX RoPE, Llama 3's frequency factors, a tied head). Both
// modes compute every gradient of every architecture; only Anneal's own layout can be written back as
// a full checkpoint (writeLlamaGguf), so the API trains others as LoRA adapters.
//
// Usage (SFT; RL is the same with its own dLogprobs):
//   const model = new LlamaModel(config, { seed: 1 });      // or { weights, lora: { config, seed } }
//   const { logprobs } = model.forward({ tokens, targets, batchSize: B, seqLen: T }, { dropoutSeed });
//   const loss = tokenCrossEntropy(logprobs, mask, dLogprobs);
//   model.params.zeroGrads(); model.backward(dLogprobs);
//   clipGradNorm(model.params.grads, 1); optimizer.step(lr);
import { defaultKernels, type Kernels } from "../kernels";
import { Activations, recomputesForRows } from "./activations";
import { gatherRows } from "../kernels/packed-weight";
import { blockBackward, blockForward, blockTensors, type BlockContext, type BlockParams, type TensorSource } from "./block";
import { decodeWeight, FrozenBase, isPacked, type BaseWeights, type Weight } from "./frozen-base";
import { configProblems, headDim, outputWeightName, ropeStyleOf, type LlamaConfig } from "./config";
import { initWeights } from "./init-weights";
import { embeddingBackward, embeddingForward } from "./layers/embedding";
import type { LoraPath } from "./layers/lora";
import { OutputHead } from "./layers/output-head";
import { ropeTable, type RopeTable } from "./layers/rope";
import {
  initLoraAdapters, LORA_A, LORA_B, loadLoraAdapters, loraAdapterViews, loraScale, loraShapes, loraSites, loraTensorShapes,
  validateLoraConfig, type LoraAdapter, type LoraConfig,
} from "./lora";
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

/** Views into the model's buffers: valid until the next forward. */
export interface ForwardResult {
  /** [M] log π(target) per position; 0 where target is −1. */
  logprobs: Float32Array;
  /** [M] entropy of the predicted distribution per position with a target (nats); 0 elsewhere. */
  entropies: Float32Array;
}

export interface LlamaModelOptions {
  /** Initialise deterministically from this seed (default 1) unless weights are given. */
  seed?: number;
  /** Start from these weights (e.g. read from a GGUF checkpoint) instead of a fresh init. Packed
   *  matrices stay packed in LoRA mode (the frozen base) and are decoded to float32 in full mode. */
  weights?: BaseWeights;
  /** Kernel implementation; defaults to the process-wide choice (native if built, else TypeScript). */
  kernels?: Kernels;
  /** Train LoRA adapters on frozen weights instead of the weights themselves. */
  lora?: LlamaModelLora;
  /**
   * Keep only each block's input from forward and recompute the block in backward (activation
   * checkpointing): activations of one block instead of all, for about a third more compute.
   * Default: per step, recomputesForRows (LoRA steps whose activations would exceed
   * STEP_ACTIVATION_BYTES; never in full mode, Anneal's own small bases, whose every activation fits).
   */
  recompute?: boolean;
}

export interface LlamaModelLora {
  config: LoraConfig;
  /** Initialises the adapters (A as PEFT does, B = 0: step 0 is the base) unless adapters are given. */
  seed: number;
  /** Start from these adapters (a checkpoint's, e.g. readLoraGguf's), keyed by base weight. */
  adapters?: Record<string, LoraAdapter>;
}

export interface ForwardOptions {
  /**
   * Training steps only: drop the LoRA adapters' inputs with the config's dropout, the masks drawn
   * from this seed (and the layer and projection), so a step repeated with its seed — a resumed
   * job's — is bit-identical (see dropoutSeedFor). Without it (evaluation, generation, log-probs
   * of a policy) there is no dropout. Full mode has none either way.
   */
  dropoutSeed?: number;
}

export function validateConfig(c: LlamaConfig): void {
  const problems = configProblems(c);
  if (problems.length) throw new Error(`invalid LlamaConfig: ${problems.join("; ")}`);
}

export class LlamaModel {
  readonly config: LlamaConfig;
  /** What training updates: every weight (full mode) or the LoRA adapters. */
  readonly params: ParameterSet;
  /** The llama weights forward reads: params itself in full mode; in LoRA mode the frozen base,
   *  its matrices packed in their file encoding (frozen-base.ts). */
  readonly base: ParameterSet | FrozenBase;
  /** The base's tensors by name, as the layers read them. */
  private readonly source: TensorSource<Weight>;
  /** The adapters' settings; null in full mode. */
  readonly lora: LoraConfig | null;
  readonly kernels: Kernels;
  /** cos/sin per (position, pair), for the longest sequence run so far (a 131k context's table is
   *  tens of MB, and each position's entries do not depend on the table's length). */
  private rope: RopeTable | null = null;
  private readonly blocks: BlockParams[];
  /** LlamaModelOptions.recompute; undefined: decided per step by its rows. */
  private readonly recompute: boolean | undefined;
  private activations: Activations | null = null;
  private readonly head: OutputHead;
  /** The forward pass backward will differentiate; cleared by backward (it consumes the logits). */
  private pending: { batch: TokenBatch; ctx: BlockContext } | null = null;

  constructor(config: LlamaConfig, options: LlamaModelOptions = {}) {
    validateConfig(config);
    this.config = config;
    this.kernels = options.kernels ?? defaultKernels();
    const lora = options.lora ?? null;
    if (lora) validateLoraConfig(lora.config);
    this.lora = lora ? { ...lora.config, targets: [...lora.config.targets] } : null;
    this.recompute = options.recompute;
    this.head = new OutputHead(config.dim, config.vocabSize);
    const initial = () => {
      const set = ParameterSet.forModel(config, { frozen: true });
      initWeights(set, config, options.seed ?? 1);
      return set.weights();
    };
    if (lora) {
      const base = new FrozenBase(config, options.weights ?? initial());
      [this.base, this.source] = [base, base];
    } else {
      const base = ParameterSet.forModel(config);
      if (options.weights) base.load(Object.fromEntries(Object.entries(options.weights).map(([name, w]) => [name, decodeWeight(w)])));
      else initWeights(base, config, options.seed ?? 1);
      [this.base, this.source] = [base, { has: (n) => base.has(n), vector: (n) => base.value(n), matrix: (n) => base.value(n) }];
    }
    this.params = lora ? new ParameterSet(loraTensorShapes(config, lora.config)) : (this.base as ParameterSet);
    const grads: TensorSource<Float32Array> = { has: (n) => this.params.has(n), vector: (n) => this.params.grad(n), matrix: (n) => this.params.grad(n) };
    if (lora?.adapters) loadLoraAdapters(this.params, config, lora.config, lora.adapters);
    else if (lora) initLoraAdapters(this.params, config, lora.config, lora.seed);
    this.blocks = Array.from({ length: config.nLayers }, (_, layer) => ({
      layer,
      w: blockTensors(this.source, layer),
      g: lora ? null : blockTensors(grads, layer),
      lora: {},
    }));
    if (lora) for (const { layer, target, weight } of loraSites(config, lora.config)) this.blocks[layer].lora[target] = this.loraPath(weight);
  }

  /** The adapters as views into params (no copy), keyed by base weight: what writeLoraGguf takes
   *  (with alpha = model.lora.alpha). LoRA mode only. */
  adapters(): Record<string, LoraAdapter> {
    if (!this.lora) throw new Error("a full-weight model has no LoRA adapters");
    return loraAdapterViews(this.params, this.config, this.lora);
  }

  forward(batch: TokenBatch, options: ForwardOptions = {}): ForwardResult {
    const { a, ctx } = this.trunk(batch, options);
    const M = batch.batchSize * batch.seqLen;
    this.head.forward(this.kernels, a.logprobs, a.entropies, a.logitsLse, a.xnFinal, this.source.matrix(outputWeightName(this.config)), batch.targets, M);
    this.pending = { batch, ctx };
    return { logprobs: a.logprobs.subarray(0, M), entropies: a.entropies.subarray(0, M) };
  }

  /**
   * The raw logits [P,V] at the given positions of the batch (row-major indices into [B,T]; all
   * of them by default), for inference: generation, sampling, parity checks. No dropout; the
   * batch's targets are ignored. It is not a training forward: a pending backward is dropped.
   */
  logits(batch: TokenBatch, positions?: ArrayLike<number>): Float32Array {
    const { a } = this.trunk(batch, {});
    this.pending = null;
    const M = batch.batchSize * batch.seqLen;
    return this.head.logitsAt(this.kernels, a.xnFinal, this.source.matrix(outputWeightName(this.config)), positions ?? Int32Array.from({ length: M }, (_, m) => m));
  }

  /**
   * Accumulates ∂L/∂params into params.grads (call params.zeroGrads() first for a fresh step;
   * skip it to accumulate micro-batches). dLogprobs[M] = ∂L/∂log π(target) per position (zero for
   * untrained ones); dEntropies[M], if given, = ∂L/∂entropy (for an entropy bonus). Positions
   * without a target carry neither. Runs once per forward.
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

    const dxn = a.scratch.dxn;
    const base = this.source;
    // A frozen base (LoRA) has no gradients: the head's dW is skipped, the final norm's gain
    // gradient goes to scratch, and the embedding (nothing below it) has no backward at all. A tied
    // head's dW and the embedding's scatter-add both land in token_embd's gradient, which sums them.
    const grad = (name: string) => (this.lora ? null : this.params.grad(name));
    const head = outputWeightName(c);
    this.head.backward(this.kernels, dxn, grad(head), a.xnFinal, base.matrix(head), batch.targets, a.logitsLse, a.entropies, dLogprobs, dEntropies, M);
    a.dResidual.fill(0, 0, M * c.dim);
    const normGrad = grad("output_norm.weight") ?? a.scratch.frozenGain.fill(0);
    this.kernels.rmsnormBackward(a.dResidual, normGrad, dxn, a.residual[c.nLayers], base.vector("output_norm.weight"), a.rstdFinal, M, c.dim);
    for (let l = c.nLayers - 1; l >= 0; l--) {
      // Recompute: block l's activations again, from its kept input with the same dropout streams,
      // so they are forward's bits (the last block's are still there). Its output lands on
      // residual[l+1], which nothing reads any more, with the same values.
      if (a.recompute && l < c.nLayers - 1) blockForward(ctx, this.blocks[l], a.block(l), a.residual[l], a.residual[l + 1], a.scratch);
      blockBackward(ctx, this.blocks[l], a.block(l), a.residual[l], a.dResidual, a.scratch);
    }
    const embeddingGrad = grad("token_embd.weight");
    if (embeddingGrad) embeddingBackward(embeddingGrad, a.dResidual, batch.tokens, M, c.dim);
  }

  // Embedding, blocks and the final norm: xnFinal[M,D], and what backward needs of them.
  private trunk(batch: TokenBatch, options: ForwardOptions): { a: Activations; ctx: BlockContext } {
    this.checkBatch(batch);
    const c = this.config;
    const { batchSize: B, seqLen: T, tokens } = batch;
    const M = B * T;
    const recompute = this.recompute ?? recomputesForRows(c, this.lora, M);
    if (!this.activations || this.activations.rows < M || this.activations.recompute !== recompute) {
      this.activations = null; // let the old buffers go before the new ones are allocated
      this.activations = new Activations(c, M, this.lora, recompute);
    }
    const a = this.activations;
    const dropout = this.lora && this.lora.dropout > 0 && options.dropoutSeed !== undefined ? { p: this.lora.dropout, seed: options.dropoutSeed } : null;
    const ctx: BlockContext = {
      kernels: this.kernels, config: c, rope: this.ropeFor(T),
      attention: { batch: B, seqLen: T, nHeads: c.nHeads, nKvHeads: c.nKvHeads, headDim: headDim(c) },
      dropout,
    };
    this.layers(ctx, a, tokens);
    return { a, ctx };
  }

  /**
   * Incremental decoding's pass (kv-decoder.ts): token rows, each at its own position of its own
   * sequence, through the layers logits() runs, with `attend` (the decoder's KV cache) in place of
   * causal attention over a batch; the logits [P,V] at the given rows. No dropout; a pending backward is dropped.
   */
  decodeLogits(tokens: Int32Array, positions: Int32Array, attend: NonNullable<BlockContext["attend"]>, at: ArrayLike<number>): Float32Array {
    const c = this.config;
    const M = tokens.length;
    this.checkBatch({ tokens, targets: new Int32Array(M).fill(-1), batchSize: M, seqLen: 1 });
    this.pending = null;
    const a = new Activations(c, M, this.lora, true); // one block's buffers serve every layer (no backward)
    const ctx: BlockContext = {
      kernels: this.kernels, config: c, rope: this.ropeFor(positions.reduce((n, p) => Math.max(n, p + 1), 0)),
      attention: { batch: M, seqLen: 1, nHeads: c.nHeads, nKvHeads: c.nKvHeads, headDim: headDim(c) },
      dropout: null, attend,
    };
    this.layers(ctx, a, tokens);
    return this.head.logitsAt(this.kernels, a.xnFinal, this.source.matrix(outputWeightName(this.config)), at);
  }

  // The rope table, grown to cover positions [0, T).
  private ropeFor(T: number): RopeTable {
    const c = this.config;
    if (!this.rope || this.rope.seqLen < T) {
      this.rope = ropeTable(T, headDim(c), c.ropeBase, { style: ropeStyleOf(c), freqFactors: c.ropeFreqFactors }, this.kernels.cosSin);
    }
    return this.rope;
  }

  // Embedding, blocks and the final norm of the rows in `tokens`: a.xnFinal.
  private layers(ctx: BlockContext, a: Activations, tokens: Int32Array): void {
    const c = this.config;
    const M = tokens.length;
    const embedding = this.source.matrix("token_embd.weight");
    if (isPacked(embedding)) gatherRows(a.residual[0], embedding, tokens);
    else embeddingForward(a.residual[0], embedding, tokens, M, c.dim);
    for (let l = 0; l < c.nLayers; l++) blockForward(ctx, this.blocks[l], a.block(l), a.residual[l], a.residual[l + 1], a.scratch);
    this.kernels.rmsnormForward(a.xnFinal, a.rstdFinal, a.residual[c.nLayers], this.source.vector("output_norm.weight"), M, c.dim, c.normEps);
  }

  private loraPath(weight: string): LoraPath {
    const lora = this.lora!;
    const shapes = loraShapes(this.config, weight, lora.rank);
    const p = this.params;
    return {
      a: p.value(weight + LORA_A), b: p.value(weight + LORA_B), da: p.grad(weight + LORA_A), db: p.grad(weight + LORA_B),
      rank: lora.rank, inDim: shapes.a[1], outDim: shapes.b[0], scale: loraScale(lora),
    };
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
