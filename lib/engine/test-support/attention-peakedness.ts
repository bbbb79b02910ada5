// Test fixture: how peaked a model's attention is, so a parity test can show its random weights make
// queries pick out a few positions (as trained models do) rather than average them all, where any
// attention bug would hide. Measured on the first layer, in float64 (reference.ts's operations): its
// queries and keys come from the embeddings alone, and the fixture scales every layer alike.
import { headDim, kvDim, qDim, ropeStyleOf, type LlamaConfig } from "../model/config";
import { embedding64, linear64, rmsnorm64, rope64 } from "../model/reference";

export interface AttentionPeakedness {
  /** Mean over heads and positions of the largest attention weight (1/(t+1) when uniform). */
  meanMaxWeight: number;
  /** Mean of each row's entropy over ln(t+1), the uniform row's (0: one position, 1: uniform). */
  meanEntropyRatio: number;
}

/** Over positions t ≥ `from` (earlier rows have too few positions to be uniform or not). */
export function firstLayerAttention(c: LlamaConfig, w: Record<string, ArrayLike<number>>, tokens: ArrayLike<number>, from = 8): AttentionPeakedness {
  const [dh, H, Hkv, T] = [headDim(c), c.nHeads, c.nKvHeads, tokens.length];
  const rope = { style: ropeStyleOf(c), freqFactors: c.ropeFreqFactors };
  const xn = rmsnorm64(embedding64(w["token_embd.weight"], tokens, c.dim), w["blk.0.attn_norm.weight"], c.dim, c.normEps);
  const project = (name: string, width: number) => {
    const y = linear64(xn, w[`blk.0.${name}.weight`], c.dim, width);
    const bias = w[`blk.0.${name}.bias`];
    const biased = bias ? y.map((v, i) => v + bias[i % width]) : y;
    const norm = w[`blk.0.${name}_norm.weight`];
    return c.qkNorm && norm ? rmsnorm64(biased, norm, dh, c.normEps) : biased;
  };
  const q = rope64(project("attn_q", qDim(c)), H, dh, c.ropeBase, rope);
  const k = rope64(project("attn_k", kvDim(c)), Hkv, dh, c.ropeBase, rope);
  let [maxSum, entropySum, rows] = [0, 0, 0];
  for (let h = 0; h < H; h++) {
    const g = Math.floor(h / (H / Hkv));
    for (let t = from; t < T; t++) {
      const scores = Array.from({ length: t + 1 }, (_, u) => {
        let s = 0;
        for (let i = 0; i < dh; i++) s += q[(t * H + h) * dh + i] * k[(u * Hkv + g) * dh + i];
        return s / Math.sqrt(dh);
      });
      const max = Math.max(...scores);
      const e = scores.map((s) => Math.exp(s - max));
      const z = e.reduce((a, b) => a + b, 0);
      const p = e.map((v) => v / z);
      maxSum += Math.max(...p);
      entropySum += -p.reduce((sum, v) => sum + (v > 0 ? v * Math.log(v) : 0), 0) / Math.log(t + 1);
      rows++;
    }
  }
  return { meanMaxWeight: maxSum / rows, meanEntropyRatio: entropySum / rows };
}
