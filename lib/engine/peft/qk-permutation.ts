// The `llama` q/k row order. Hugging Face's LlamaAttention turns each head's halves (i, i + h/2) by
// RoPE (rotate_half); llama.cpp's `llama` graph turns adjacent pairs (2i, 2i+1). convert_hf_to_gguf.py
// (LlamaModel.permute) therefore reorders the rows of q_proj (per attention head) and k_proj (per
// key/value head) so that adjacent-pair RoPE on the GGUF rows equals rotate_half on Hugging Face's:
// within each head of width h, GGUF row 2j + i is Hugging Face row i·h/2 + j (i ∈ {0, 1}, j < h/2).
// convert_lora_to_gguf.py applies the same reorder to lora_B of q/k (its rows are the weight's) and
// leaves lora_A (its columns are the input's). Only `llama` is permuted: qwen2 and qwen3 use NEOX RoPE
// (rotate_half) in llama.cpp too, so their rows are stored in Hugging Face's order.

import type { LlamaArch, LlamaConfig } from "../model/config";

/** Whether a weight's rows (and its adapter's B rows) are stored permuted in this architecture's GGUF. */
export const permutesQkRows = (arch: LlamaArch, target: string): boolean => arch === "llama" && (target === "attn_q" || target === "attn_k");

/** How many heads a permuted weight's rows come in: q's attention heads, k's key/value heads
 *  (LlamaModel.permute's n_head and n_head_kv). */
export const qkHeads = (config: LlamaConfig, target: string): number => (target === "attn_q" ? config.nHeads : config.nKvHeads);

/** Hugging Face's row order → GGUF's (LlamaModel.permute): a [heads·h, cols] row-major matrix. */
export const permuteQkRows = (rows: Float32Array, heads: number, cols: number): Float32Array => reorder(rows, heads, cols, true);

/** GGUF's row order → Hugging Face's: the inverse of permuteQkRows. */
export const unpermuteQkRows = (rows: Float32Array, heads: number, cols: number): Float32Array => reorder(rows, heads, cols, false);

function reorder(rows: Float32Array, heads: number, cols: number, toGguf: boolean): Float32Array {
  const width = rows.length / cols / heads;
  if (!Number.isInteger(width) || width % 2 !== 0) throw new Error(`q/k permutation: ${rows.length / cols} rows are not ${heads} heads of an even width`);
  const half = width / 2;
  const out = new Float32Array(rows.length);
  for (let head = 0; head < heads; head++) {
    for (let i = 0; i < 2; i++) {
      for (let j = 0; j < half; j++) {
        const hf = head * width + i * half + j;
        const gguf = head * width + 2 * j + i;
        const [from, to] = toGguf ? [hf, gguf] : [gguf, hf];
        out.set(rows.subarray(from * cols, (from + 1) * cols), to * cols);
      }
    }
  }
  return out;
}
