// Erasing tokens from a sequence's KV cache takes node-llama-cpp's context lock, which its batch
// loop holds for as long as decodes stay queued. Every generating sequence queues its next decode
// after each batch (next-token-logits.ts), so an erase — the start of each request on a reused
// sequence — waited for every other generation of the context to end: a request arriving while 7
// streams generated got its first token ~0.5 s later. While an erase waits, decodes hold back
// instead: the batch loop drains, lets the erase in (well under a millisecond), and the held
// decodes go on together in the next batch.

import type { LlamaContext, LlamaContextSequence } from "node-llama-cpp";

interface Gate {
  erasing: number;
  open: Promise<void>;
  release: () => void;
}

const gates = new WeakMap<LlamaContext, Gate>();

/** `sequence.eraseContextTokenRanges`, with the context's decodes held back until it is done. */
export async function eraseTokens(sequence: LlamaContextSequence, ranges: { start: number; end: number }[]): Promise<void> {
  const context = sequence.context;
  let gate = gates.get(context);
  if (!gate) {
    let release!: () => void;
    const open = new Promise<void>((resolve) => (release = resolve));
    gates.set(context, (gate = { erasing: 0, open, release }));
  }
  gate.erasing++;
  try {
    await sequence.eraseContextTokenRanges(ranges);
  } finally {
    if (--gate.erasing === 0) {
      gates.delete(context);
      gate.release();
    }
  }
}

/** Resolves when no erase waits on `sequence`'s context (undefined when none does: no await). */
export function erasesDone(sequence: LlamaContextSequence): Promise<void> | undefined {
  return gates.get(sequence.context)?.open;
}
