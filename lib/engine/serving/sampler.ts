// Token sampling in TypeScript over raw logits, so every knob (and its order) is Anneal's and a
// seeded request is reproducible. Order: masks (allowed/banned ids, grammar) and logit bias →
// penalties → temperature (0 = greedy) → top-k → top-p → min-p → draw. Penalties follow vLLM:
// repetition over prompt and output tokens (divide positive logits, multiply negative ones),
// frequency and presence over output tokens only (subtract count·f and presence·[count > 0]).

import { Prng } from "../prng";

export interface SamplingParams {
  /** 0 picks the most likely token. Default 1. */
  temperature?: number;
  /** Keep the k most likely tokens (0 = off). */
  topK?: number;
  /** Keep the smallest set of most likely tokens whose probability reaches p (1 = off). */
  topP?: number;
  /** Drop tokens less likely than minP × the most likely one's probability (0 = off). */
  minP?: number;
  repetitionPenalty?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  /** Added to a token's logit. */
  logitBias?: Readonly<Record<number, number>>;
  /** Only these tokens may be sampled. */
  allowedTokenIds?: readonly number[];
  bannedTokenIds?: readonly number[];
  /** Seed of the draws; the same seed, logits and params give the same tokens. */
  seed?: number;
}

/** Samples one request's tokens; remembers what it produced for the penalties. */
export class Sampler {
  private readonly rng: Prng;
  private readonly seen = new Set<number>();
  private readonly outputCounts = new Map<number, number>();

  private readonly allowed?: Set<number>;

  constructor(private readonly params: SamplingParams, promptTokens: readonly number[] = []) {
    this.rng = new Prng(params.seed ?? Math.floor(Math.random() * 2 ** 32));
    for (const t of promptTokens) this.seen.add(t);
    if (params.allowedTokenIds) this.allowed = new Set(params.allowedTokenIds);
  }

  /** Picks the next token; `isAllowed` (e.g. a grammar) can veto tokens. Throws if none is left. */
  sample(logits: Float32Array, isAllowed?: (token: number) => boolean): number {
    const adjusted = this.adjust(logits, isAllowed);
    const token = pickToken(adjusted, this.params, this.rng);
    this.seen.add(token);
    this.outputCounts.set(token, (this.outputCounts.get(token) ?? 0) + 1);
    return token;
  }

  /** Logits after masks, bias and penalties (−Infinity = impossible). */
  adjust(logits: Float32Array, isAllowed?: (token: number) => boolean): Float32Array {
    const p = this.params;
    const out = Float32Array.from(logits);
    if (this.allowed) for (let t = 0; t < out.length; t++) if (!this.allowed.has(t)) out[t] = -Infinity;
    for (const t of p.bannedTokenIds ?? []) out[t] = -Infinity;
    for (const [t, bias] of Object.entries(p.logitBias ?? {})) out[Number(t)] += bias;
    const repetition = p.repetitionPenalty ?? 1;
    if (repetition !== 1) for (const t of this.seen) out[t] = out[t] > 0 ? out[t] / repetition : out[t] * repetition;
    for (const [t, count] of this.outputCounts) out[t] -= count * (p.frequencyPenalty ?? 0) + (p.presencePenalty ?? 0);
    if (isAllowed) for (let t = 0; t < out.length; t++) if (out[t] !== -Infinity && !isAllowed(t)) out[t] = -Infinity;
    return out;
  }
}

/** Temperature, top-k, top-p and min-p over adjusted logits, then one draw from `rng`. */
export function pickToken(logits: Float32Array, params: SamplingParams, rng: Prng): number {
  const candidates: number[] = [];
  let best = -1;
  for (let t = 0; t < logits.length; t++) {
    if (logits[t] === -Infinity) continue;
    candidates.push(t);
    if (best < 0 || logits[t] > logits[best]) best = t;
  }
  if (best < 0) throw new Error("sampler: every token is masked");
  const temperature = params.temperature ?? 1;
  if (temperature === 0) return best;

  const topK = params.topK ?? 0, topP = params.topP ?? 1, minP = params.minP ?? 0;
  const truncates = topK > 0 || topP < 1 || minP > 0;
  // Truncation needs the most likely first; ids break ties so the order never depends on the sort.
  if (truncates) candidates.sort((a, b) => logits[b] - logits[a] || a - b);
  const kept = topK > 0 ? candidates.slice(0, topK) : candidates;
  const weights = kept.map((t) => Math.exp((logits[t] - logits[best]) / temperature));
  let n = kept.length;
  if (topP < 1) {
    const total = weights.reduce((a, b) => a + b, 0);
    let mass = 0;
    for (n = 0; n < kept.length && mass < topP * total; n++) mass += weights[n];
  }
  while (minP > 0 && n > 1 && weights[n - 1] < minP) n--; // weights are relative to the best token's

  let total = 0;
  for (let i = 0; i < n; i++) total += weights[i];
  let u = rng.next() * total;
  for (let i = 0; i < n; i++) {
    u -= weights[i];
    if (u < 0) return kept[i];
  }
  return kept[n - 1];
}
