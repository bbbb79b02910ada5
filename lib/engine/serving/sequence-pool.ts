// The sequences of one llama.cpp context, handed out one request at a time. llama.cpp batches the
// decodes of a context's busy sequences together, which is where CPU throughput comes from (one
// thread per context). A request waits when every sequence is busy.

import type { LlamaContext, LlamaContextSequence } from "node-llama-cpp";

export class SequencePool {
  private readonly idle: LlamaContextSequence[] = [];
  private readonly waiting: ((sequence: LlamaContextSequence) => void)[] = [];
  private handedOut = 0;

  constructor(readonly context: LlamaContext) {
    while (context.sequencesLeft > 0) this.idle.push(context.getSequence());
  }

  get inUse(): boolean {
    return this.handedOut > 0 || this.waiting.length > 0;
  }

  /** An idle sequence, preferring the one whose cached tokens share the longest prefix with `prompt`
   *  (its KV cache can be reused). */
  acquire(prompt: readonly number[] = []): Promise<LlamaContextSequence> {
    if (this.idle.length === 0) return new Promise((resolve) => this.waiting.push(resolve));
    this.handedOut++;
    let best = 0;
    this.idle.forEach((s, i) => {
      if (commonPrefixLength(s.contextTokens, prompt) > commonPrefixLength(this.idle[best].contextTokens, prompt)) best = i;
    });
    return Promise.resolve(this.idle.splice(best, 1)[0]);
  }

  /** Returns a sequence; it goes straight to the oldest waiting request, if any. */
  release(sequence: LlamaContextSequence): void {
    const next = this.waiting.shift();
    if (next) return next(sequence);
    this.handedOut--;
    this.idle.push(sequence);
  }

  dispose(): Promise<void> {
    return this.context.dispose();
  }
}

export function commonPrefixLength(a: readonly number[], b: readonly number[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}
