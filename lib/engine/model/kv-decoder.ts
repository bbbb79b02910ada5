// Incremental decoding with a KV cache (llama.cpp's way of generating): each token of a sequence goes
// through the model once. append() runs some sequences' new tokens — a whole prompt (prefill), then
// one token each per step — as rows through LlamaModel.decodeLogits (the model's own blocks, LoRA
// adapters included, no dropout); in each layer the rows' q and k are rotated at the rows' own
// positions, k and v are stored in their sequence's cache, and each query row attends to its
// sequence's cached positions up to its own (causal, grouped-query: nHeads/nKvHeads query heads share
// a kv head). The same function as LlamaModel.logits over the whole sequence, up to float rounding
// (this attention sums in float64, one row at a time).
import type { BlockActivations } from "./activations";
import { headDim, kvDim, qDim } from "./config";
import { ropeAt, type RopeTable } from "./layers/rope";
import type { LlamaModel } from "./llama-model";

export class KvDecoder {
  /** Per layer, the rotated k and the v of every cached position: [sequences, capacity, kvD]. */
  private readonly keys: Float32Array[];
  private readonly values: Float32Array[];
  /** Positions cached per sequence. */
  private readonly lengths: Int32Array;
  private scores = new Float64Array(0);

  /** capacity: the most tokens a sequence will hold (at most the context length). */
  constructor(private readonly model: LlamaModel, sequences: number, private readonly capacity: number) {
    const c = model.config;
    if (capacity > c.contextLength) throw new Error(`a KV cache of ${capacity} positions exceeds the context length ${c.contextLength}`);
    const size = sequences * capacity * kvDim(c);
    this.keys = Array.from({ length: c.nLayers }, () => new Float32Array(size));
    this.values = Array.from({ length: c.nLayers }, () => new Float32Array(size));
    this.lengths = new Int32Array(sequences);
  }

  /** Appends tokens[i] (one or more) to sequence sequences[i]; the logits [sequences.length, V]
   *  after each one's last new token. */
  append(sequences: readonly number[], tokens: readonly (readonly number[])[]): Float32Array {
    const M = tokens.reduce((n, t) => n + t.length, 0);
    const [ids, rowSequence, rowPosition] = [new Int32Array(M), new Int32Array(M), new Int32Array(M)];
    const last: number[] = [];
    let m = 0;
    sequences.forEach((s, i) => {
      const start = this.lengths[s];
      if (tokens[i].length === 0) throw new Error(`no tokens to append to sequence ${s}`);
      if (start + tokens[i].length > this.capacity) throw new Error(`sequence ${s} would exceed its KV cache of ${this.capacity} positions`);
      tokens[i].forEach((id, t) => {
        [ids[m], rowSequence[m], rowPosition[m]] = [id, s, start + t];
        m++;
      });
      last.push(m - 1);
    });
    const logits = this.model.decodeLogits(ids, rowPosition, (layer, a, rope) => this.attend(layer, a, rope, rowSequence, rowPosition), last);
    sequences.forEach((s, i) => (this.lengths[s] += tokens[i].length));
    return logits;
  }

  // a.att[M,Q] = each row's attention to its sequence's cache up to its position, after rotating
  // a.q and a.k and caching a.k and a.v. Every row is cached before any attends (a prompt's rows
  // attend to each other).
  private attend(layer: number, a: BlockActivations, rope: RopeTable, rowSequence: Int32Array, rowPosition: Int32Array): void {
    const c = this.model.config;
    const [H, Hkv, dh, kvD, Q] = [c.nHeads, c.nKvHeads, headDim(c), kvDim(c), qDim(c)];
    const M = rowSequence.length;
    ropeAt(a.q, rope, rowPosition, H, dh);
    ropeAt(a.k, rope, rowPosition, Hkv, dh);
    const [keys, values] = [this.keys[layer], this.values[layer]];
    const slot = (r: number) => (rowSequence[r] * this.capacity + rowPosition[r]) * kvD;
    for (let r = 0; r < M; r++) {
      keys.set(a.k.subarray(r * kvD, (r + 1) * kvD), slot(r));
      values.set(a.v.subarray(r * kvD, (r + 1) * kvD), slot(r));
    }
    const group = H / Hkv;
    const scale = 1 / Math.sqrt(dh);
    if (this.scores.length < this.capacity) this.scores = new Float64Array(this.capacity);
    const scores = this.scores;
    for (let r = 0; r < M; r++) {
      const first = rowSequence[r] * this.capacity * kvD; // the sequence's position 0
      const n = rowPosition[r] + 1;
      for (let h = 0; h < H; h++) {
        const qi = r * Q + h * dh;
        const g = Math.floor(h / group) * dh;
        let max = -Infinity;
        for (let j = 0; j < n; j++) {
          const kj = first + j * kvD + g;
          let dot = 0;
          for (let i = 0; i < dh; i++) dot += a.q[qi + i] * keys[kj + i];
          scores[j] = dot * scale;
          if (scores[j] > max) max = scores[j];
        }
        let z = 0;
        for (let j = 0; j < n; j++) z += scores[j] = Math.exp(scores[j] - max);
        const out = a.att.subarray(qi, qi + dh).fill(0);
        for (let j = 0; j < n; j++) {
          const p = scores[j] / z;
          const vj = first + j * kvD + g;
          for (let i = 0; i < dh; i++) out[i] += p * values[vj + i];
        }
      }
    }
  }
}
