// Putting a LoRA adapter on a llama.cpp context that exists. node-llama-cpp (pinned at 3.22.1 in
// package.json) takes adapters only when it creates a context; its internal `_setLoras` is what that
// creation calls, and it replaces the context's adapters through llama_set_adapters_lora (an empty
// list removes them). It loads each adapter file once per model (cached by path). sequence-pool.ts
// switches contexts between adapters with it; generate.test.ts checks that a switched context gives
// the logits of one created with that adapter, and of the bare model once switched back.

import type { LlamaContext } from "node-llama-cpp";

export interface AdapterRef {
  path: string;
  /** Multiplies alpha/rank (default 1). */
  scale?: number;
}

interface ContextWithLoras {
  _setLoras(loras: { filePath: string; scale?: number }[]): Promise<void>;
}

/** The adapter as node-llama-cpp's `lora` context option takes it. */
export function loraOf(adapter: AdapterRef): { filePath: string; scale: number } {
  return { filePath: adapter.path, scale: adapter.scale ?? 1 };
}

/** Replaces `context`'s adapters with `adapter` (none when undefined). */
export async function switchContextAdapter(context: LlamaContext, adapter: AdapterRef | undefined): Promise<void> {
  const internal = context as unknown as Partial<ContextWithLoras>;
  if (typeof internal._setLoras !== "function") throw new Error("node-llama-cpp no longer has LlamaContext._setLoras: adapters cannot be switched on a context (see lib/engine/serving/context-adapter.ts)");
  await internal._setLoras(adapter ? [loraOf(adapter)] : []);
}
