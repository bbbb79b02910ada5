// The sequences that serve one model (with one adapter), handed out one request at a time. They live
// in llama.cpp contexts created as demand grows — up to `sequences` sequences in all,
// `sequencesPerContext` in each — and a request waits (first come, first served) when every one is
// busy. Each context decodes on its own thread, so separate contexts decode in parallel on separate
// cores; the sequences of one context share its batches. On these machines one sequence per context
// served the most tokens (docs/decisions.md: 3,100 tok/s at 8 streams with 8 contexts, 1,600 with
// one context of 8 sequences, whose batches cost more per token than single decodes).

import type { LlamaContext, LlamaContextSequence } from "node-llama-cpp";

export interface PoolLimits {
  sequences: number;
  sequencesPerContext: number;
}

type Waiter = (sequence: LlamaContextSequence | "retry") => void;

export class SequencePool {
  private readonly contexts: Promise<LlamaContext | undefined>[] = [];
  private readonly idle: LlamaContextSequence[] = [];
  private readonly waiting: Waiter[] = [];
  /** Sequences that exist or are being created. */
  private created = 0;
  private handedOut = 0;

  constructor(
    private readonly createContext: (sequences: number) => Promise<LlamaContext>,
    private readonly limits: PoolLimits,
  ) {}

  get inUse(): boolean {
    return this.handedOut > 0 || this.waiting.length > 0;
  }

  /** An idle sequence, preferring the one whose cached tokens share the longest prefix with `prompt`
   *  (its KV cache can be reused); else one of a new context, while the limit allows; else the
   *  next one released. */
  async acquire(prompt: readonly number[] = []): Promise<LlamaContextSequence> {
    if (this.idle.length > 0) return this.handOut(this.takeIdle(prompt));
    if (this.created < this.limits.sequences) return this.handOut(await this.grow());
    const next = await new Promise<LlamaContextSequence | "retry">((resolve) => this.waiting.push(resolve));
    return next === "retry" ? this.acquire(prompt) : next; // handed over by release(): already counted
  }

  /** Returns a sequence; it goes straight to the oldest waiting request, if any. */
  release(sequence: LlamaContextSequence): void {
    const next = this.waiting.shift();
    if (next) return next(sequence);
    this.handedOut--;
    this.idle.push(sequence);
  }

  async dispose(): Promise<void> {
    await Promise.all(this.contexts.map(async (context) => (await context)?.dispose()));
  }

  private handOut(sequence: LlamaContextSequence): LlamaContextSequence {
    this.handedOut++;
    return sequence;
  }

  private takeIdle(prompt: readonly number[]): LlamaContextSequence {
    let best = 0;
    this.idle.forEach((s, i) => {
      if (commonPrefixLength(s.contextTokens, prompt) > commonPrefixLength(this.idle[best].contextTokens, prompt)) best = i;
    });
    return this.idle.splice(best, 1)[0];
  }

  /** A new context's sequences: one for the caller, the rest to waiting requests or idle. */
  private async grow(): Promise<LlamaContextSequence> {
    const count = Math.min(this.limits.sequencesPerContext, this.limits.sequences - this.created);
    this.created += count;
    const creation = this.createContext(count);
    const tracked = creation.catch(() => undefined); // dispose() waits for creations under way
    this.contexts.push(tracked);
    let context: LlamaContext;
    try {
      context = await creation;
    } catch (error) {
      this.contexts.splice(this.contexts.indexOf(tracked), 1); // failures are not kept
      this.created -= count;
      // Room for new contexts again: waiting requests try for themselves.
      for (const waiter of this.waiting.splice(0)) waiter("retry");
      throw error;
    }
    const sequences: LlamaContextSequence[] = [];
    while (context.sequencesLeft > 0) sequences.push(context.getSequence());
    const mine = sequences.shift()!;
    for (const sequence of sequences) {
      const next = this.waiting.shift();
      if (next) {
        this.handedOut++;
        next(sequence);
      } else this.idle.push(sequence);
    }
    return mine;
  }
}

export function commonPrefixLength(a: readonly number[], b: readonly number[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}
