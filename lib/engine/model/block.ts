// One llama transformer block, forward and backward:
//   x ─ attn_norm ─ q,k,v ─ RoPE(q,k) ─ causal GQA attention ─ attn_output ─(+x)→ resMid
//   resMid ─ ffn_norm ─ gate,up ─ silu(gate)·up ─ ffn_down ─(+resMid)→ out
import type { AttentionShape, Kernels } from "../kernels";
import type { BlockActivations, BlockScratch } from "./activations";
import { headDim, type LlamaConfig } from "./config";
import { linearBackward, linearForward } from "./layers/linear";
import { ropeBackward, ropeForward, type RopeTable } from "./layers/rope";
import type { ParameterSet } from "./parameters";

/** One block's tensors (weights or their gradients), named after the GGUF tensors. */
export interface BlockTensors {
  attnNorm: Float32Array; // [D]
  q: Float32Array; // [D,D]
  k: Float32Array; // [kvD,D]
  v: Float32Array; // [kvD,D]
  output: Float32Array; // [D,D]
  ffnNorm: Float32Array; // [D]
  gate: Float32Array; // [F,D]
  up: Float32Array; // [F,D]
  down: Float32Array; // [D,F]
}

export function blockTensors(params: ParameterSet, layer: number, of: "value" | "grad"): BlockTensors {
  const t = (name: string) => params[of](`blk.${layer}.${name}.weight`);
  return {
    attnNorm: t("attn_norm"), q: t("attn_q"), k: t("attn_k"), v: t("attn_v"), output: t("attn_output"),
    ffnNorm: t("ffn_norm"), gate: t("ffn_gate"), up: t("ffn_up"), down: t("ffn_down"),
  };
}

/** What every block of one pass shares. */
export interface BlockContext {
  kernels: Kernels;
  config: LlamaConfig;
  rope: RopeTable;
  attention: AttentionShape;
}

// out[M,D] = block(x[M,D]); saves what backward needs in a.
export function blockForward(ctx: BlockContext, w: BlockTensors, a: BlockActivations, x: Float32Array, out: Float32Array): void {
  const { kernels: k, config: c, rope, attention: s } = ctx;
  const M = s.batch * s.seqLen;
  const [D, F, dh] = [c.dim, c.ffnDim, headDim(c)];
  const kvD = c.nKvHeads * dh;

  k.rmsnormForward(a.xn1, a.rstd1, x, w.attnNorm, M, D, c.normEps);
  linearForward(k, a.q, a.xn1, w.q, M, D, D);
  linearForward(k, a.k, a.xn1, w.k, M, D, kvD);
  linearForward(k, a.v, a.xn1, w.v, M, D, kvD);
  ropeForward(a.q, rope, s.batch, s.seqLen, c.nHeads, dh);
  ropeForward(a.k, rope, s.batch, s.seqLen, c.nKvHeads, dh);
  k.attentionForward(a.att, a.lse, a.q, a.k, a.v, s);
  a.resMid.set(x.subarray(0, M * D));
  linearForward(k, a.resMid, a.att, w.output, M, D, D, true); // resMid = x + att·Woᵀ

  k.rmsnormForward(a.xn2, a.rstd2, a.resMid, w.ffnNorm, M, D, c.normEps);
  linearForward(k, a.gate, a.xn2, w.gate, M, D, F);
  linearForward(k, a.up, a.xn2, w.up, M, D, F);
  k.swigluForward(a.h, a.gate, a.up, M * F);
  out.set(a.resMid.subarray(0, M * D));
  linearForward(k, out, a.h, w.down, M, F, D, true); // out = resMid + h·Wdownᵀ
}

// dres[M,D]: ∂L/∂out on entry, ∂L/∂x on return (the residual passes it through, the sublayers add
// to it). Weight gradients accumulate into g.
export function blockBackward(
  ctx: BlockContext, w: BlockTensors, g: BlockTensors, a: BlockActivations, x: Float32Array,
  dres: Float32Array, d: BlockScratch,
): void {
  const { kernels: k, config: c, rope, attention: s } = ctx;
  const M = s.batch * s.seqLen;
  const [D, F, dh] = [c.dim, c.ffnDim, headDim(c)];
  const kvD = c.nKvHeads * dh;

  linearBackward(k, d.dh, g.down, dres, a.h, w.down, M, F, D, false);
  k.swigluBackward(d.dgate, d.dup, d.dh, a.gate, a.up, M * F);
  linearBackward(k, d.dxn, g.gate, d.dgate, a.xn2, w.gate, M, D, F, false);
  linearBackward(k, d.dxn, g.up, d.dup, a.xn2, w.up, M, D, F, true);
  k.rmsnormBackward(dres, g.ffnNorm, d.dxn, a.resMid, w.ffnNorm, a.rstd2, M, D); // dres is now ∂L/∂resMid

  linearBackward(k, d.datt, g.output, dres, a.att, w.output, M, D, D, false);
  k.attentionBackward(d.dq, d.dk, d.dv, d.datt, a.q, a.k, a.v, a.att, a.lse, s);
  ropeBackward(d.dq, rope, s.batch, s.seqLen, c.nHeads, dh);
  ropeBackward(d.dk, rope, s.batch, s.seqLen, c.nKvHeads, dh);
  linearBackward(k, d.dxn, g.q, d.dq, a.xn1, w.q, M, D, D, false);
  linearBackward(k, d.dxn, g.k, d.dk, a.xn1, w.k, M, D, kvD, true);
  linearBackward(k, d.dxn, g.v, d.dv, a.xn1, w.v, M, D, kvD, true);
  k.rmsnormBackward(dres, g.attnNorm, d.dxn, x, w.attnNorm, a.rstd1, M, D); // dres is now ∂L/∂x
}
