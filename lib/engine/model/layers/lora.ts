// The adapter path of a LoRA projection (see ../lora.ts), forward and backward. The frozen base
// path beside it is the linear layer with its weight gradient skipped (linear.ts, dW = null).
//   forward:  xd = drop(x) [M,in];  t = xd·Aᵀ [M,rank];  y += s·(t·Bᵀ);  u = s·t (kept)
//   backward: dB += dyᵀ·u  (= s·dyᵀ·(xd·Aᵀ));  du = s·dy·B [M,rank];  dA += duᵀ·xd;
//             dx += mask⊙(du·A)   (the mask holds 1/(1−p) where it keeps)
// Dropout is torch's inverted dropout: an input is zeroed with probability p, the rest scaled by
// 1/(1−p). The mask is not kept: backward draws it again from an equal Prng stream, which costs a
// pass of the generator over [M,in] but keeps an adapter's saved activations at u, [M,rank] — saving
// the mask (or xd) would hold another [M,in] per adapter from forward to backward.
import type { Kernels } from "../../kernels";
import { packedWeightFromF32 } from "../../kernels/packed-weight";
import { Prng } from "../../prng";
import { LORA_TARGETS, type LoraTarget } from "../lora";

/** One adapted projection W[out,in]: its adapter, the adapter's gradients, and the scale s. */
export interface LoraPath {
  a: Float32Array; // [rank,in]
  b: Float32Array; // [out,rank]
  da: Float32Array; // [rank,in]
  db: Float32Array; // [out,rank]
  rank: number;
  inDim: number;
  outDim: number;
  /** s = alpha/rank */
  scale: number;
}

/** One pass's dropout on one adapter's input. */
export interface LoraDropout {
  p: number;
  /** A fresh stream for this adapter in this pass; backward must get one equal to forward's. */
  prng: Prng;
  /** Scratch of at least M·in floats each. */
  mask: Float32Array;
  dropped: Float32Array;
}

/** Keys the dropout streams apart from every other use of a seed (e.g. the adapters' init). */
const DROPOUT_STREAM = 0x64726f70;

/** The generator of one adapter's dropout mask in the pass with this seed. */
export const dropoutStream = (seed: number, layer: number, target: LoraTarget): Prng =>
  new Prng(seed, DROPOUT_STREAM, layer, LORA_TARGETS.indexOf(target));

// mask[n] = 0 with probability p, else 1/(1−p). Each 32-bit draw decides two entries, 16 bits
// each (drawing is most of the cost), so p is applied in steps of 2⁻¹⁶ and the kept entries are
// scaled by the exact inverse of the rounded keep rate.
export function dropoutMask(mask: Float32Array, n: number, p: number, prng: Prng): void {
  const threshold = Math.round(p * 65536);
  const keep = 65536 / (65536 - threshold);
  for (let i = 0; i < n; i += 2) {
    const r = prng.uint32();
    mask[i] = (r & 0xffff) < threshold ? 0 : keep;
    if (i + 1 < n) mask[i + 1] = r >>> 16 < threshold ? 0 : keep;
  }
}

// out[n] = x⊙mask
function masked(out: Float32Array, x: Float32Array, mask: Float32Array, n: number): Float32Array {
  for (let i = 0; i < n; i++) out[i] = x[i] * mask[i];
  return out;
}

function scale(x: Float32Array, n: number, s: number): void {
  for (let i = 0; i < n; i++) x[i] *= s;
}

/** Rows of t·Bᵀ computed at a time (their scratch is this many rows of the widest projection). */
const PRODUCT_ROWS = 64;
/** That scratch, one per JavaScript thread (each training thread has its own module), grown to the
 *  widest projection seen (65 rows of it: 1.2 MiB for Qwen2.5-0.5B's 4,864) and kept. */
let product = new Float32Array(0);

// y[M,out] += s·((drop(x)·Aᵀ)·Bᵀ) for x[M,in]; keeps u[M,rank] = s·drop(x)·Aᵀ for backward. As llama.cpp
// applies an adapter (llm_build_lora_mm): both products summed as ggml's mul_mat sums F32 weights
// (matmulXWt), then scaled, then added, each a float rounding. t·Bᵀ goes in blocks of rows, never one
// row alone unless M is 1 (ggml sums a lone row in another order).
export function loraForward(
  k: Kernels, y: Float32Array, u: Float32Array, x: Float32Array, p: LoraPath, M: number, drop: LoraDropout | null,
): void {
  const n = M * p.inDim;
  let xd = x;
  if (drop) {
    dropoutMask(drop.mask, n, drop.p, drop.prng);
    xd = masked(drop.dropped, x, drop.mask, n);
  }
  const t = u;
  k.matmulXWt(t, xd, packedWeightFromF32(p.a, p.rank, p.inDim), M, false);
  const b = packedWeightFromF32(p.b, p.outDim, p.rank);
  if (product.length < (PRODUCT_ROWS + 1) * p.outDim) product = new Float32Array((PRODUCT_ROWS + 1) * p.outDim);
  for (let m0 = 0; m0 < M; ) {
    const rows = M - m0 <= PRODUCT_ROWS + 1 ? M - m0 : PRODUCT_ROWS;
    k.matmulXWt(product, t.subarray(m0 * p.rank, (m0 + rows) * p.rank), b, rows, false);
    const o = m0 * p.outDim;
    for (let i = 0; i < rows * p.outDim; i++) y[o + i] += Math.fround(product[i] * p.scale);
    m0 += rows;
  }
  scale(u, M * p.rank, p.scale);
}

// From dy[M,out]: dA, dB += their gradients, dx[M,in] += the adapter path's share of ∂L/∂x.
// x, u and drop's stream as in forward; du is [M,rank] scratch.
export function loraBackward(
  k: Kernels, dx: Float32Array, du: Float32Array, dy: Float32Array, u: Float32Array, x: Float32Array, p: LoraPath,
  M: number, drop: LoraDropout | null,
): void {
  const n = M * p.inDim;
  k.matmulAtB(p.db, dy, u, M, p.outDim, p.rank, true);
  k.matmulAB(du, dy, p.b, M, p.outDim, p.rank, false);
  scale(du, M * p.rank, p.scale);
  if (!drop) {
    k.matmulAtB(p.da, du, x, M, p.rank, p.inDim, true);
    k.matmulAB(dx, du, p.a, M, p.rank, p.inDim, true);
    return;
  }
  dropoutMask(drop.mask, n, drop.p, drop.prng);
  k.matmulAtB(p.da, du, masked(drop.dropped, x, drop.mask, n), M, p.rank, p.inDim, true);
  const dxd = drop.dropped; // xd is spent: reuse its buffer for ∂L/∂drop(x)
  k.matmulAB(dxd, du, p.a, M, p.rank, p.inDim, false);
  for (let i = 0; i < n; i++) dx[i] += dxd[i] * drop.mask[i];
}
