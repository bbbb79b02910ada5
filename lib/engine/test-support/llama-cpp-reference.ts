// Test fixture: llama.cpp (node-llama-cpp) as the reference a trainer's forward pass must match: the
// next-token log-probabilities over the whole vocabulary after every position of a token sequence,
// with or without a LoRA adapter. Computed as engine.md's numerical agreement note says llama.cpp
// matches a float64 forward pass: one thread, flash attention off, an F32 KV cache.

import type { LlamaContext, LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import { logSoftmax } from "../serving/generate";
import { getLlamaRuntime } from "../serving/llama-runtime";

export interface LoraFile {
  filePath: string;
  /** Defaults to 1 (llama.cpp then scales by alpha / rank). */
  scale?: number;
}

export interface LlamaCppReferenceOptions {
  lora?: LoraFile;
  /** KV cells; sequences may be at most this long. */
  contextSize?: number;
}

/** One context of the model: its own KV cache, adapter and sequence. */
export interface LlamaCppEvaluator {
  /** Row t is log p(· | tokens[0..t]) over the full vocabulary (the model's own, not a prompt's). */
  logprobs(tokens: readonly number[]): Promise<Float64Array[]>;
  /** `count` tokens after `prompt`, greedy (end-of-generation tokens do not stop it). */
  generate(prompt: readonly number[], count: number): Promise<number[]>;
}

export interface LlamaCppReference extends LlamaCppEvaluator {
  model: LlamaModel;
  /** The same loaded model with an adapter (another context, disposed with this reference): llama.cpp
   *  takes ~1 s to load a model with a 150k vocabulary, a context with an adapter a few ms. */
  withLora(lora: LoraFile): Promise<LlamaCppEvaluator>;
  dispose(): Promise<void>;
}

/** Positions evaluated per call: llama.cpp hands back each position's logits as a Map of the whole
 *  vocabulary (~50 ms a position for 151,936 tokens), so they are turned into arrays a chunk at a time. */
const CHUNK = 32;

export async function openLlamaCppReference(modelPath: string, options: LlamaCppReferenceOptions = {}): Promise<LlamaCppReference> {
  const model = await (await getLlamaRuntime()).loadModel({ modelPath });
  const contexts: LlamaContext[] = [];
  async function evaluator(lora?: LoraFile): Promise<LlamaCppEvaluator> {
    const context = await model.createContext({
      contextSize: options.contextSize ?? 512,
      threads: 1,
      flashAttention: false,
      experimentalKvCacheKeyType: "F32",
      experimentalKvCacheValueType: "F32",
      ...(lora && { lora: { adapters: [{ filePath: lora.filePath, scale: lora.scale ?? 1 }] } }),
    });
    contexts.push(context);
    const sequence = context.getSequence();
    return { logprobs: (tokens) => logprobsAfterEach(sequence, tokens), generate: (prompt, count) => greedy(sequence, prompt, count) };
  }
  const dispose = async () => {
    for (const context of contexts) await context.dispose();
    await model.dispose();
  };
  try {
    return { model, ...(await evaluator(options.lora)), withLora: evaluator, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

async function greedy(sequence: LlamaContextSequence, prompt: readonly number[], count: number): Promise<number[]> {
  await sequence.clearHistory();
  const out: number[] = [];
  for await (const token of sequence.evaluate([...prompt] as Token[], { temperature: 0, yieldEogToken: true })) {
    out.push(token);
    if (out.length === count) break;
  }
  return out;
}

async function logprobsAfterEach(sequence: LlamaContextSequence, tokens: readonly number[]): Promise<Float64Array[]> {
  await sequence.clearHistory();
  const rows: Float64Array[] = [];
  for (let start = 0; start < tokens.length; start += CHUNK) {
    const chunk = tokens.slice(start, start + CHUNK) as Token[];
    const results = await sequence.controlledEvaluate(chunk.map((t) => [t, { generateNext: { logits: true } }]));
    for (const result of results) {
      const byToken = result?.next.logits;
      if (!byToken) throw new Error("llamaCppReference: llama.cpp returned no logits");
      // With logits requested and no sampling options, llama.cpp returns every vocabulary entry.
      const logits = new Float32Array(byToken.size);
      for (const [token, logit] of byToken) logits[token] = logit;
      rows.push(logSoftmax(logits));
    }
  }
  return rows;
}

/** One sequence's next-token log-probabilities (loads the model, evaluates, disposes). */
export async function llamaCppReference(modelPath: string, tokens: readonly number[], options: LlamaCppReferenceOptions = {}): Promise<Float64Array[]> {
  const reference = await openLlamaCppReference(modelPath, { contextSize: Math.max(256, tokens.length), ...options });
  try {
    return await reference.logprobs(tokens);
  } finally {
    await reference.dispose();
  }
}
