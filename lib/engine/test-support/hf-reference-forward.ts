// Test fixture: a transformer forward pass as Hugging Face's LlamaForCausalLM / Qwen2ForCausalLM /
// Qwen3ForCausalLM compute it, in float64 plain loops, on weights in Hugging Face's layout (q/k rows
// unpermuted: every architecture turns halves (i, i + h/2) by RoPE, rotate_half) with PEFT LoRA
// adapters applied as PEFT's Linear does: y = x·Wᵀ + b + scale·(x·Aᵀ)·Bᵀ. What an exported adapter is
// checked with when PEFT itself is not installed.

import { headDim, type LlamaConfig } from "../model/config";

export interface HfLora {
  /** [r, in] and [out, r], row-major, keyed by the GGUF weight name the projection has ("blk.0.attn_q.weight"). */
  adapters: Record<string, { a: Float32Array; b: Float32Array; rank: number }>;
  /** lora_alpha / r */
  scale: number;
}

/** Row t: log p(· | tokens[0..t]) over the vocabulary. `weights` by GGUF name, in Hugging Face's layout. */
export function hfReferenceLogprobs(config: LlamaConfig, weights: Record<string, Float32Array>, tokens: readonly number[], lora?: HfLora): Float64Array[] {
  const { dim, nLayers, nHeads, nKvHeads, normEps } = config;
  const h = headDim(config);
  const half = h / 2;
  // HF's inv_freq, divided by Llama 3's factors where the base has them (rope_freqs).
  const invFreq = Float64Array.from({ length: half }, (_, i) => Math.pow(config.ropeBase, (-2 * i) / h) / (config.ropeFreqFactors?.[i] ?? 1));

  const linear = (x: Float64Array, name: string, out: number): Float64Array => {
    const w = weights[name];
    const inDim = x.length;
    const y = new Float64Array(out);
    for (let o = 0; o < out; o++) {
      let sum = 0;
      for (let i = 0; i < inDim; i++) sum += w[o * inDim + i] * x[i];
      y[o] = sum;
    }
    const bias = weights[name.replace(/\.weight$/, ".bias")];
    if (bias) for (let o = 0; o < out; o++) y[o] += bias[o];
    const adapter = lora?.adapters[name];
    if (adapter) {
      const ax = new Float64Array(adapter.rank);
      for (let r = 0; r < adapter.rank; r++) for (let i = 0; i < inDim; i++) ax[r] += adapter.a[r * inDim + i] * x[i];
      for (let o = 0; o < out; o++) {
        let sum = 0;
        for (let r = 0; r < adapter.rank; r++) sum += adapter.b[o * adapter.rank + r] * ax[r];
        y[o] += lora!.scale * sum;
      }
    }
    return y;
  };
  const rmsNorm = (x: Float64Array, w: Float32Array, at = 0, n = x.length): void => {
    let ss = 0;
    for (let i = 0; i < n; i++) ss += x[at + i] * x[at + i];
    const inv = 1 / Math.sqrt(ss / n + normEps);
    for (let i = 0; i < n; i++) x[at + i] = x[at + i] * inv * w[i];
  };
  const normed = (x: Float64Array, name: string) => {
    const y = Float64Array.from(x);
    rmsNorm(y, weights[name]);
    return y;
  };
  const rope = (v: Float64Array, heads: number, pos: number) => {
    for (let head = 0; head < heads; head++) {
      for (let i = 0; i < half; i++) {
        const [c, s] = [Math.cos(pos * invFreq[i]), Math.sin(pos * invFreq[i])];
        const [x0, x1] = [v[head * h + i], v[head * h + i + half]];
        v[head * h + i] = x0 * c - x1 * s;
        v[head * h + i + half] = x1 * c + x0 * s;
      }
    }
  };

  const T = tokens.length;
  const stream = tokens.map((t) => Float64Array.from(weights["token_embd.weight"].subarray(t * dim, (t + 1) * dim)));
  for (let l = 0; l < nLayers; l++) {
    const b = `blk.${l}`;
    const keys: Float64Array[] = [];
    const values: Float64Array[] = [];
    const queries: Float64Array[] = [];
    for (let t = 0; t < T; t++) {
      const x = normed(stream[t], `${b}.attn_norm.weight`);
      const q = linear(x, `${b}.attn_q.weight`, nHeads * h);
      const k = linear(x, `${b}.attn_k.weight`, nKvHeads * h);
      if (config.qkNorm) {
        for (let head = 0; head < nHeads; head++) rmsNorm(q, weights[`${b}.attn_q_norm.weight`], head * h, h);
        for (let head = 0; head < nKvHeads; head++) rmsNorm(k, weights[`${b}.attn_k_norm.weight`], head * h, h);
      }
      rope(q, nHeads, t);
      rope(k, nKvHeads, t);
      queries.push(q);
      keys.push(k);
      values.push(linear(x, `${b}.attn_v.weight`, nKvHeads * h));
    }
    for (let t = 0; t < T; t++) {
      const attended = new Float64Array(nHeads * h);
      for (let head = 0; head < nHeads; head++) {
        const kvHead = Math.floor(head / (nHeads / nKvHeads));
        const scores = new Float64Array(t + 1);
        for (let s = 0; s <= t; s++) {
          let dot = 0;
          for (let i = 0; i < h; i++) dot += queries[t][head * h + i] * keys[s][kvHead * h + i];
          scores[s] = dot / Math.sqrt(h);
        }
        const max = Math.max(...scores);
        let total = 0;
        for (let s = 0; s <= t; s++) total += (scores[s] = Math.exp(scores[s] - max));
        for (let s = 0; s <= t; s++) for (let i = 0; i < h; i++) attended[head * h + i] += (scores[s] / total) * values[s][kvHead * h + i];
      }
      const o = linear(attended, `${b}.attn_output.weight`, dim);
      for (let i = 0; i < dim; i++) stream[t][i] += o[i];
      const x = normed(stream[t], `${b}.ffn_norm.weight`);
      const gate = linear(x, `${b}.ffn_gate.weight`, config.ffnDim);
      const up = linear(x, `${b}.ffn_up.weight`, config.ffnDim);
      for (let i = 0; i < gate.length; i++) gate[i] = (gate[i] / (1 + Math.exp(-gate[i]))) * up[i];
      const down = linear(gate, `${b}.ffn_down.weight`, dim);
      for (let i = 0; i < dim; i++) stream[t][i] += down[i];
    }
  }
  const head = weights[config.tiedOutput ? "token_embd.weight" : "output.weight"];
  return stream.map((x) => {
    const y = normed(x, "output_norm.weight");
    const logits = new Float64Array(config.vocabSize);
    for (let v = 0; v < config.vocabSize; v++) {
      let sum = 0;
      for (let i = 0; i < dim; i++) sum += head[v * dim + i] * y[i];
      logits[v] = sum;
    }
    let max = -Infinity;
    for (const z of logits) max = Math.max(max, z);
    let total = 0;
    for (const z of logits) total += Math.exp(z - max);
    const logTotal = max + Math.log(total);
    return logits.map((z) => z - logTotal);
  });
}
