// One llama transformer block, forward and backward:
//   x ─ attn_norm ─ q,k,v (+bias) ─ [per-head norm of q,k] ─ RoPE(q,k) ─ causal GQA attention ─ attn_output ─(+x)→ resMid
//   resMid ─ ffn_norm ─ gate,up ─ silu(gate)·up ─ ffn_down ─(+resMid)→ out
// The bracketed and (+bias) steps are the real architectures' (config.ts): qwen2's q/k/v biases, qwen3's
// q/k norms. q and the attention output are Q = nHeads·headDim wide (D unless heads are widened).
// Each of the seven projections may carry a LoRA adapter (layers/lora.ts) beside its weight; with
// frozen weights (LoRA training) backward still carries ∂L/∂x through every layer but computes no
// weight gradient.
import type { AttentionShape, Kernels } from "../kernels";
import type { BlockActivations, BlockScratch } from "./activations";
import { headDim, kvDim, qDim, type LlamaConfig } from "./config";
import { biasBackward, biasForward } from "./layers/bias";
import { linearBackward, linearForward } from "./layers/linear";
import { dropoutStream, loraBackward, loraForward, type LoraDropout, type LoraPath } from "./layers/lora";
import { ropeBackward, ropeForward, type RopeTable } from "./layers/rope";
import type { Weight } from "./frozen-base";
import type { LoraTarget } from "./lora";

/** One block's tensors (weights or their gradients), named after the GGUF tensors. The seven
 *  projections are W (float32, or packed in a LoRA model's frozen base); the rest is float32. */
export interface BlockTensors<W extends Weight = Float32Array> {
  attnNorm: Float32Array; // [D]
  q: W; // [Q,D]
  k: W; // [kvD,D]
  v: W; // [kvD,D]
  output: W; // [D,Q]
  ffnNorm: Float32Array; // [D]
  gate: W; // [F,D]
  up: W; // [F,D]
  down: W; // [D,F]
  /** config.qkvBias: [Q], [kvD], [kvD] */
  qBias?: Float32Array;
  kBias?: Float32Array;
  vBias?: Float32Array;
  /** config.qkNorm: [headDim] each */
  qNorm?: Float32Array;
  kNorm?: Float32Array;
}

/** Where a block's tensors come from: a 1-D tensor is float32, a matrix of type W. */
export interface TensorSource<W extends Weight> {
  has(name: string): boolean;
  vector(name: string): Float32Array;
  matrix(name: string): W;
}

export function blockTensors<W extends Weight>(source: TensorSource<W>, layer: number): BlockTensors<W> {
  const m = (name: string) => source.matrix(`blk.${layer}.${name}`);
  const v = (name: string) => source.vector(`blk.${layer}.${name}`);
  const optional = (name: string) => (source.has(`blk.${layer}.${name}`) ? v(name) : undefined);
  return {
    attnNorm: v("attn_norm.weight"), q: m("attn_q.weight"), k: m("attn_k.weight"), v: m("attn_v.weight"), output: m("attn_output.weight"),
    ffnNorm: v("ffn_norm.weight"), gate: m("ffn_gate.weight"), up: m("ffn_up.weight"), down: m("ffn_down.weight"),
    qBias: optional("attn_q.bias"), kBias: optional("attn_k.bias"), vBias: optional("attn_v.bias"),
    qNorm: optional("attn_q_norm.weight"), kNorm: optional("attn_k_norm.weight"),
  };
}

/** One block's parameters as a pass uses them. */
export interface BlockParams {
  layer: number;
  w: BlockTensors<Weight>;
  /** Weight gradients; null when the weights are frozen: no dW is computed. */
  g: BlockTensors | null;
  /** LoRA adapters on this block's projections (none in full mode). */
  lora: Partial<Record<LoraTarget, LoraPath>>;
}

/** What every block of one pass shares. */
export interface BlockContext {
  kernels: Kernels;
  config: LlamaConfig;
  rope: RopeTable;
  attention: AttentionShape;
  /** LoRA dropout of this pass (training steps only): probability and seed; null for none. */
  dropout: { p: number; seed: number } | null;
  /** Incremental decoding (kv-decoder.ts): rotates block `layer`'s q and k (a.q, a.k) with the rope table
   *  and fills a.att against its KV cache, in place of RoPE over [B,T] and causal attention. Forward only. */
  attend?: (layer: number, a: BlockActivations, rope: RopeTable) => void;
}

type Projection = "q" | "k" | "v" | "output" | "gate" | "up" | "down";
const TARGET: Record<Projection, LoraTarget> = {
  q: "attn_q", k: "attn_k", v: "attn_v", output: "attn_output", gate: "ffn_gate", up: "ffn_up", down: "ffn_down",
};
const BIAS: Partial<Record<Projection, "qBias" | "kBias" | "vBias">> = { q: "qBias", k: "kBias", v: "vBias" };

// The dropout of one adapter in this pass: forward and backward draw the same stream.
function loraDropout(ctx: BlockContext, layer: number, target: LoraTarget, d: BlockScratch): LoraDropout | null {
  if (!ctx.dropout) return null;
  return { p: ctx.dropout.p, prng: dropoutStream(ctx.dropout.seed, layer, target), mask: d.dropMask, dropped: d.dropped };
}

// out[M,D] = block(x[M,D]); saves what backward needs in a (d: scratch for LoRA dropout).
export function blockForward(ctx: BlockContext, p: BlockParams, a: BlockActivations, x: Float32Array, out: Float32Array, d: BlockScratch): void {
  const { kernels: k, config: c, rope, attention: s } = ctx;
  const M = s.batch * s.seqLen;
  const [D, F, Q, kvD, dh] = [c.dim, c.ffnDim, qDim(c), kvDim(c), headDim(c)];
  const w = p.w;
  // y (=, or += when accumulate: a residual) x·Wᵀ (+ b), plus the adapter's s·drop(x)·Aᵀ·Bᵀ where W has
  // one, in llama.cpp's order (llm_build_lora_mm, then the bias, then the residual) so that a served
  // adapter's outputs are these to the bit: ((x·Wᵀ + adapter) + b), added to y whole.
  const project = (proj: Projection, y: Float32Array, input: Float32Array, inDim: number, outDim: number, accumulate = false) => {
    const target = TARGET[proj];
    const adapter = p.lora[target];
    const bias = BIAS[proj] && w[BIAS[proj]];
    const product = accumulate ? d.dxn : y; // dxn is free until backward (BlockScratch)
    linearForward(k, product, input, w[proj], M, inDim, outDim);
    if (adapter) loraForward(k, product, a.loraU[target]!, input, adapter, M, loraDropout(ctx, p.layer, target, d));
    if (bias) biasForward(product, bias, M, outDim);
    if (accumulate) for (let i = 0; i < M * outDim; i++) y[i] += product[i];
  };

  k.rmsnormForward(a.xn1, a.rstd1, x, w.attnNorm, M, D, c.normEps);
  // With per-head norms, q and k are projected into qPre and kPre and normed (each head a row) into q, k.
  const [qOut, kOut] = c.qkNorm ? [a.qPre, a.kPre] : [a.q, a.k];
  project("q", qOut, a.xn1, D, Q);
  project("k", kOut, a.xn1, D, kvD);
  project("v", a.v, a.xn1, D, kvD);
  if (c.qkNorm) {
    k.rmsnormForward(a.q, a.rstdQ, a.qPre, w.qNorm!, M * c.nHeads, dh, c.normEps);
    k.rmsnormForward(a.k, a.rstdK, a.kPre, w.kNorm!, M * c.nKvHeads, dh, c.normEps);
  }
  if (ctx.attend) ctx.attend(p.layer, a, rope);
  else {
    ropeForward(a.q, rope, s.batch, s.seqLen, c.nHeads, dh);
    ropeForward(a.k, rope, s.batch, s.seqLen, c.nKvHeads, dh);
    k.attentionForward(a.att, a.lse, a.q, a.k, a.v, s);
  }
  a.resMid.set(x.subarray(0, M * D));
  project("output", a.resMid, a.att, Q, D, true); // resMid = x + att·Woᵀ

  k.rmsnormForward(a.xn2, a.rstd2, a.resMid, w.ffnNorm, M, D, c.normEps);
  project("gate", a.gate, a.xn2, D, F);
  project("up", a.up, a.xn2, D, F);
  k.swigluForward(a.h, a.gate, a.up, M * F);
  out.set(a.resMid.subarray(0, M * D));
  project("down", out, a.h, F, D, true); // out = resMid + h·Wdownᵀ
}

// dres[M,D]: ∂L/∂out on entry, ∂L/∂x on return (the residual passes it through, the sublayers add
// to it). Weight gradients (unless frozen) and adapter gradients accumulate into p.
export function blockBackward(
  ctx: BlockContext, p: BlockParams, a: BlockActivations, x: Float32Array, dres: Float32Array, d: BlockScratch,
): void {
  const { kernels: k, config: c, rope, attention: s } = ctx;
  const M = s.batch * s.seqLen;
  const [D, F, Q, kvD, dh] = [c.dim, c.ffnDim, qDim(c), kvDim(c), headDim(c)];
  const { w, g } = p;
  // dx (=, or += when accumulate) ∂L/∂input through the projection and its adapter, from dy.
  const projectBack = (proj: Projection, dx: Float32Array, dy: Float32Array, input: Float32Array, inDim: number, outDim: number, accumulate: boolean) => {
    linearBackward(k, dx, g ? g[proj] : null, dy, input, w[proj], M, inDim, outDim, accumulate);
    const biasGrad = g && BIAS[proj] && g[BIAS[proj]];
    if (biasGrad) biasBackward(biasGrad, dy, M, outDim);
    const target = TARGET[proj];
    const adapter = p.lora[target];
    if (adapter) loraBackward(k, dx, d.loraDu, dy, a.loraU[target]!, input, adapter, M, loraDropout(ctx, p.layer, target, d));
  };
  // A frozen gain's gradient is computed by the kernel (a D-length sum, negligible) and dropped.
  const gainGrad = (name: "attnNorm" | "ffnNorm" | "qNorm" | "kNorm") => (g ? g[name]! : d.frozenGain.fill(0));

  projectBack("down", d.dh, dres, a.h, F, D, false);
  k.swigluBackward(d.dgate, d.dup, d.dh, a.gate, a.up, M * F);
  projectBack("gate", d.dxn, d.dgate, a.xn2, D, F, false);
  projectBack("up", d.dxn, d.dup, a.xn2, D, F, true);
  k.rmsnormBackward(dres, gainGrad("ffnNorm"), d.dxn, a.resMid, w.ffnNorm, a.rstd2, M, D); // dres is now ∂L/∂resMid

  projectBack("output", d.datt, dres, a.att, Q, D, false);
  k.attentionBackward(d.dq, d.dk, d.dv, d.datt, a.q, a.k, a.v, a.att, a.lse, s);
  ropeBackward(d.dq, rope, s.batch, s.seqLen, c.nHeads, dh);
  ropeBackward(d.dk, rope, s.batch, s.seqLen, c.nKvHeads, dh);
  let [dq, dk] = [d.dq, d.dk];
  if (c.qkNorm) {
    [dq, dk] = [d.dqPre.fill(0, 0, M * Q), d.dkPre.fill(0, 0, M * kvD)];
    k.rmsnormBackward(dq, gainGrad("qNorm"), d.dq, a.qPre, w.qNorm!, a.rstdQ, M * c.nHeads, dh);
    k.rmsnormBackward(dk, gainGrad("kNorm"), d.dk, a.kPre, w.kNorm!, a.rstdK, M * c.nKvHeads, dh);
  }
  projectBack("q", d.dxn, dq, a.xn1, D, Q, false);
  projectBack("k", d.dxn, dk, a.xn1, D, kvD, true);
  projectBack("v", d.dxn, d.dv, a.xn1, D, kvD, true);
  k.rmsnormBackward(dres, gainGrad("attnNorm"), d.dxn, x, w.attnNorm, a.rstd1, M, D); // dres is now ∂L/∂x
}
