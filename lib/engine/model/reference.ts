// A float64 forward pass of the llama architecture, written as plainly as possible and kept
// independent of the float32 engine: finite-difference gradient checks differentiate it, and it
// is the yardstick for llama.cpp's logits (labs/ref.mjs matched them to 3.7e-6). One sequence at
// a time; every function returns a new row-major Float64Array. Slow on purpose: clarity first.
import { headDim, kvDim, outputWeightName, qDim, ropeStyleOf, type LlamaConfig } from "./config";
import type { RopeOptions } from "./layers/rope";

type Vec = ArrayLike<number>;

/** [T,D]: row t is E[tokens[t]]. */
export function embedding64(E: Vec, tokens: ArrayLike<number>, D: number): Float64Array {
  const y = new Float64Array(tokens.length * D);
  for (let t = 0; t < tokens.length; t++) for (let j = 0; j < D; j++) y[t * D + j] = E[tokens[t] * D + j];
  return y;
}

/** [T,D]: x / sqrt(mean(x²) + eps) · g, per row. */
export function rmsnorm64(x: Vec, g: Vec, D: number, eps: number): Float64Array {
  const y = new Float64Array(x.length);
  for (let r = 0; r < x.length / D; r++) {
    let ss = 0;
    for (let j = 0; j < D; j++) ss += x[r * D + j] ** 2;
    const scale = 1 / Math.sqrt(ss / D + eps);
    for (let j = 0; j < D; j++) y[r * D + j] = x[r * D + j] * scale * g[j];
  }
  return y;
}

/** [T,out] = x[T,in] · W[out,in]ᵀ */
export function linear64(x: Vec, W: Vec, inDim: number, outDim: number): Float64Array {
  const T = x.length / inDim;
  const y = new Float64Array(T * outDim);
  for (let t = 0; t < T; t++)
    for (let o = 0; o < outDim; o++) {
      let s = 0;
      for (let i = 0; i < inDim; i++) s += x[t * inDim + i] * W[o * inDim + i];
      y[t * outDim + o] = s;
    }
  return y;
}

/** RoPE: in each head, rotate pair p at row t by t·base^(−2p/dh) / factor_p; the pair is (2p, 2p+1)
 *  ("norm", llama) or (p, p + dh/2) ("neox", qwen). */
export function rope64(x: Vec, nHeads: number, dh: number, base: number, options: RopeOptions = {}): Float64Array {
  const y = Float64Array.from(x);
  const width = nHeads * dh;
  const neox = options.style === "neox";
  for (let t = 0; t < x.length / width; t++)
    for (let h = 0; h < nHeads; h++)
      for (let p = 0; p < dh / 2; p++) {
        const angle = (t * Math.pow(base, (-2 * p) / dh)) / (options.freqFactors?.[p] ?? 1);
        const [i, j] = neox ? [p, p + dh / 2] : [2 * p, 2 * p + 1];
        const o = t * width + h * dh;
        const [a, b] = [x[o + i], x[o + j]];
        y[o + i] = a * Math.cos(angle) - b * Math.sin(angle);
        y[o + j] = a * Math.sin(angle) + b * Math.cos(angle);
      }
  return y;
}

/** Causal attention; q [T,H·dh], k and v [T,Hkv·dh]; query head h reads kv head ⌊h/(H/Hkv)⌋. */
export function attention64(q: Vec, k: Vec, v: Vec, H: number, Hkv: number, dh: number): Float64Array {
  const T = q.length / (H * dh);
  const out = new Float64Array(T * H * dh);
  for (let h = 0; h < H; h++) {
    const g = Math.floor(h / (H / Hkv));
    for (let t = 0; t < T; t++) {
      const scores: number[] = [];
      for (let u = 0; u <= t; u++) {
        let s = 0;
        for (let c = 0; c < dh; c++) s += q[(t * H + h) * dh + c] * k[(u * Hkv + g) * dh + c];
        scores.push(s / Math.sqrt(dh));
      }
      const max = Math.max(...scores);
      const e = scores.map((s) => Math.exp(s - max));
      const z = e.reduce((a, b) => a + b, 0);
      for (let u = 0; u <= t; u++)
        for (let c = 0; c < dh; c++) out[(t * H + h) * dh + c] += (e[u] / z) * v[(u * Hkv + g) * dh + c];
    }
  }
  return out;
}

/** silu(gate)·up, elementwise. */
export function swiglu64(gate: Vec, up: Vec): Float64Array {
  return Float64Array.from(gate, (g, i) => (g / (1 + Math.exp(-g))) * up[i]);
}

/** [T,V] log-probabilities of each row of logits. */
export function logSoftmax64(logits: Vec, V: number): Float64Array {
  const y = new Float64Array(logits.length);
  for (let r = 0; r < logits.length / V; r++) {
    let max = -Infinity;
    for (let j = 0; j < V; j++) max = Math.max(max, logits[r * V + j]);
    let z = 0;
    for (let j = 0; j < V; j++) z += Math.exp(logits[r * V + j] - max);
    for (let j = 0; j < V; j++) y[r * V + j] = logits[r * V + j] - max - Math.log(z);
  }
  return y;
}

const add = (a: Float64Array, b: Float64Array) => a.map((x, i) => x + b[i]);

/** A LoRA adapter on one projection: y += scale·((x⊙mask)·Aᵀ)·Bᵀ; A [rank,in], B [out,rank];
 *  mask [T,in] (dropout, already holding 1/(1−p) where it keeps) or none. */
export interface ReferenceLora {
  a: Vec;
  b: Vec;
  rank: number;
  scale: number;
  mask?: Vec;
}

/** [T,out]: x·Wᵀ, plus the adapter's update when it has one. */
export function loraLinear64(x: Vec, W: Vec, inDim: number, outDim: number, lora?: ReferenceLora): Float64Array {
  const y = linear64(x, W, inDim, outDim);
  if (!lora) return y;
  const xd = lora.mask ? Float64Array.from(x, (v, i) => v * lora.mask![i]) : x;
  const update = linear64(linear64(xd, lora.a, inDim, lora.rank), lora.b, lora.rank, outDim);
  return y.map((v, i) => v + lora.scale * update[i]);
}

/** Logits [T,V] of one sequence, positions 0..T−1; `lora`: adapters keyed by base weight name. */
export function referenceForward(
  c: LlamaConfig, w: Record<string, Vec>, tokens: ArrayLike<number>, lora: Record<string, ReferenceLora> = {},
): Float64Array {
  const [dh, Q, kvD] = [headDim(c), qDim(c), kvDim(c)];
  const rope = { style: ropeStyleOf(c), freqFactors: c.ropeFreqFactors };
  let x = embedding64(w["token_embd.weight"], tokens, c.dim);
  for (let l = 0; l < c.nLayers; l++) {
    const p = (name: string) => w[`blk.${l}.${name}.weight`];
    // x·Wᵀ (+ the adapter) (+ the bias, where the model has one)
    const proj = (input: Vec, name: string, inDim: number, outDim: number) => {
      const y = loraLinear64(input, p(name), inDim, outDim, lora[`blk.${l}.${name}.weight`]);
      const bias = w[`blk.${l}.${name}.bias`];
      return bias ? y.map((v, i) => v + bias[i % outDim]) : y;
    };
    // Each head of q or k RMS-normed, where the model has per-head norms (qwen3).
    const headNorm = (y: Float64Array, name: string) => (c.qkNorm ? rmsnorm64(y, p(name), dh, c.normEps) : y);
    const xn = rmsnorm64(x, p("attn_norm"), c.dim, c.normEps);
    const q = rope64(headNorm(proj(xn, "attn_q", c.dim, Q), "attn_q_norm"), c.nHeads, dh, c.ropeBase, rope);
    const k = rope64(headNorm(proj(xn, "attn_k", c.dim, kvD), "attn_k_norm"), c.nKvHeads, dh, c.ropeBase, rope);
    const v = proj(xn, "attn_v", c.dim, kvD);
    x = add(x, proj(attention64(q, k, v, c.nHeads, c.nKvHeads, dh), "attn_output", Q, c.dim));
    const xn2 = rmsnorm64(x, p("ffn_norm"), c.dim, c.normEps);
    const act = swiglu64(proj(xn2, "ffn_gate", c.dim, c.ffnDim), proj(xn2, "ffn_up", c.dim, c.ffnDim));
    x = add(x, proj(act, "ffn_down", c.ffnDim, c.dim));
  }
  return linear64(rmsnorm64(x, w["output_norm.weight"], c.dim, c.normEps), w[outputWeightName(c)], c.dim, c.vocabSize);
}
