// The sequences that serve one model, handed out one request at a time, each with the LoRA adapter
// (or none) the request asks for. They live in llama.cpp contexts created as demand grows — up to
// `sequences` sequences in all, `sequencesPerContext` in each — and a request waits (first come,
// first served) when every one is busy. Separate contexts decode in parallel, sharing the CPUs (a
// lone one decodes on every idle CPU: model-registry.ts); the sequences of one context share its
// batches. On these machines one sequence per context served the most tokens (docs/decisions.md:
// 3,100 tok/s at 8 streams with 8 contexts, 1,600 with one context of 8 sequences).
//
// llama.cpp applies adapters per context, and switching a context's adapters is free while creating
// a context is not (a Qwen2.5-0.5B context of 4,096 tokens: 1.3–3.4 s on a busy 2-core machine), so
// the adapters share the model's contexts: a request takes an idle sequence already serving its
// adapter (the one whose cached tokens share the longest prefix with its prompt), else switches an
// idle context to its adapter (clearing the context's cached tokens, computed with the other one),
// else creates a context, else waits. A new checkpoint's first answer then costs loading its adapter
// file, not a context.

import type { LlamaContext, LlamaContextSequence } from "node-llama-cpp";

export interface PoolLimits {
  sequences: number;
  sequencesPerContext: number;
}

/** How the pool makes contexts and puts adapters on them; `A` is an adapter, or undefined for none. */
export interface PoolContexts<A> {
  create(sequences: number, adapter: A | undefined): Promise<LlamaContext>;
  /** Replaces the context's adapters with `adapter` (none when undefined). */
  switchAdapter(context: LlamaContext, adapter: A | undefined): Promise<void>;
  /** Equal adapters have equal keys. */
  keyOf(adapter: A | undefined): string;
}

interface ContextSlot {
  context: LlamaContext;
  sequences: LlamaContextSequence[];
  /** keyOf the adapter its sequences compute with; null while unknown (a switch failed). */
  adapterKey: string | null;
  handedOut: number;
  /** Settles when a switch under way (if any) has finished. */
  ready: Promise<void>;
}

interface Waiter<A> {
  adapter: A | undefined;
  resolve(sequence: LlamaContextSequence | "retry"): void;
}

export class SequencePool<A = never> {
  private readonly creations: Promise<LlamaContext | undefined>[] = [];
  private readonly slots = new Map<LlamaContextSequence, ContextSlot>();
  private readonly idle: LlamaContextSequence[] = [];
  private readonly waiting: Waiter<A>[] = [];
  /** Sequences that exist or are being created. */
  private created = 0;
  private handedOut = 0;

  constructor(
    private readonly contexts: PoolContexts<A>,
    private readonly limits: PoolLimits,
  ) {}

  get inUse(): boolean {
    return this.handedOut > 0 || this.waiting.length > 0;
  }

  /** A sequence computing with `adapter` (none when undefined). */
  async acquire(adapter?: A, prompt: readonly number[] = []): Promise<LlamaContextSequence> {
    const idle = this.takeIdle(adapter, prompt);
    if (idle) return this.prepare(idle, adapter);
    if (this.created < this.limits.sequences) return this.grow(adapter);
    const next = await new Promise<LlamaContextSequence | "retry">((resolve) => this.waiting.push({ adapter, resolve }));
    // Handed over by release(), already counted.
    return next === "retry" ? this.acquire(adapter, prompt) : this.prepare(next, adapter);
  }

  /** Returns a sequence; it goes straight to the oldest waiting request that can take it, if any. */
  release(sequence: LlamaContextSequence): void {
    const slot = this.slots.get(sequence)!;
    slot.handedOut--;
    const next = this.waiting.findIndex((w) => this.canServe(slot, w.adapter));
    if (next >= 0) {
      slot.handedOut++;
      return this.waiting.splice(next, 1)[0].resolve(sequence);
    }
    this.handedOut--;
    this.idle.push(sequence);
  }

  async dispose(): Promise<void> {
    await Promise.all(this.creations.map(async (context) => (await context)?.dispose()));
  }

  private handOut(sequence: LlamaContextSequence): LlamaContextSequence {
    this.handedOut++;
    this.slots.get(sequence)!.handedOut++;
    return sequence;
  }

  /** A sequence of `slot` can serve `adapter` as it is, or after a switch no other request sees. */
  private canServe(slot: ContextSlot, adapter: A | undefined): boolean {
    return slot.adapterKey === this.contexts.keyOf(adapter) || slot.handedOut === 0;
  }

  /** The idle sequence to hand out for `adapter`, counted as handed out: one already serving it with
   *  the longest common prefix, else one whose context can switch to it. */
  private takeIdle(adapter: A | undefined, prompt: readonly number[]): LlamaContextSequence | undefined {
    const key = this.contexts.keyOf(adapter);
    let best = -1;
    this.idle.forEach((s, i) => {
      if (this.slots.get(s)!.adapterKey !== key) return;
      if (best < 0 || commonPrefixLength(s.contextTokens, prompt) > commonPrefixLength(this.idle[best].contextTokens, prompt)) best = i;
    });
    if (best < 0) best = this.idle.findIndex((s) => this.slots.get(s)!.handedOut === 0);
    return best < 0 ? undefined : this.handOut(this.idle.splice(best, 1)[0]);
  }

  /** `sequence` (handed out) with `adapter` on its context. */
  private async prepare(sequence: LlamaContextSequence, adapter: A | undefined): Promise<LlamaContextSequence> {
    const slot = this.slots.get(sequence)!;
    const key = this.contexts.keyOf(adapter);
    if (slot.adapterKey !== key) {
      slot.adapterKey = key;
      slot.ready = (async () => {
        try {
          await this.contexts.switchAdapter(slot.context, adapter);
          await Promise.all(slot.sequences.map((s) => s.clearHistory()));
        } catch (error) {
          slot.adapterKey = null; // the next request that takes it switches again
          throw error;
        }
      })();
    }
    try {
      await slot.ready;
    } catch (error) {
      this.release(sequence);
      throw error;
    }
    return sequence;
  }

  /** A new context (with `adapter`) and its sequences: one handed out to the caller, the rest to
   *  waiting requests or idle. */
  private async grow(adapter: A | undefined): Promise<LlamaContextSequence> {
    const count = Math.min(this.limits.sequencesPerContext, this.limits.sequences - this.created);
    this.created += count;
    const creation = this.contexts.create(count, adapter);
    const tracked = creation.catch(() => undefined); // dispose() waits for creations under way
    this.creations.push(tracked);
    let context: LlamaContext;
    try {
      context = await creation;
    } catch (error) {
      this.creations.splice(this.creations.indexOf(tracked), 1); // failures are not kept
      this.created -= count;
      // Room for new contexts again: waiting requests try for themselves.
      for (const waiter of this.waiting.splice(0)) waiter.resolve("retry");
      throw error;
    }
    const sequences: LlamaContextSequence[] = [];
    while (context.sequencesLeft > 0) sequences.push(context.getSequence());
    const slot: ContextSlot = { context, sequences, adapterKey: this.contexts.keyOf(adapter), handedOut: 0, ready: Promise.resolve() };
    for (const sequence of sequences) this.slots.set(sequence, slot);
    const [mine, ...others] = sequences;
    this.handOut(mine); // first, so that no waiter switches the context under it
    for (const sequence of others) {
      slot.handedOut++; // as release() expects of a sequence it is given
      this.handedOut++;
      this.release(sequence);
    }
    return mine;
  }
}

export function commonPrefixLength(a: readonly number[], b: readonly number[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}
