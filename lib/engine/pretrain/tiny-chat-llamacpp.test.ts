// Each shipped base GGUF is served by llama.cpp exactly as Anneal trains it: node-llama-cpp loads
// it, tokenizes chat renderings to Anneal's ids, and its logits equal the float32 training model's and
// the float64 reference's (flash attention off and an F32 KV cache, so llama.cpp computes in F32);
// for tiny-chat-2 on hardest-level conversations with context before the task.

import type { LlamaContext, LlamaContextSequence, LlamaModel as LlamaCppModel, Token } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleExamples, type CorpusOptions } from "../corpus/generate";
import { withAnswer } from "../corpus/example";
import { readLlamaGguf, type LlamaGgufContents } from "../gguf/llama-gguf";
import { LlamaModel } from "../model/llama-model";
import { referenceForward } from "../model/reference";
import { getLlamaRuntime } from "../serving/llama-runtime";
import { encodeChat, renderChat } from "../tokenizer/chatml";
import { TINY_CHAT_2_GGUF, TINY_CHAT_3_GGUF, TINY_CHAT_GGUF } from "./tiny-chat-files";

const TOLERANCE = 1e-4;

const SHIPPED: { name: string; gguf: string; corpus: Partial<CorpusOptions> }[] = [
  { name: "tiny-chat", gguf: TINY_CHAT_GGUF, corpus: {} },
  { name: "tiny-chat-2", gguf: TINY_CHAT_2_GGUF, corpus: { version: 2, levels: [3] } },
  { name: "tiny-chat-3", gguf: TINY_CHAT_3_GGUF, corpus: { version: 2, levels: [3], replyFormats: 0.5 } },
];

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
};

describe.each(SHIPPED)("shipped $name in llama.cpp", ({ gguf, corpus }) => {
  let shipped: LlamaGgufContents;
  let served: LlamaCppModel;
  let context: LlamaContext;
  let sequence: LlamaContextSequence;

  beforeAll(async () => {
    shipped = readLlamaGguf(gguf);
    served = await (await getLlamaRuntime()).loadModel({ modelPath: gguf });
    context = await served.createContext({
      contextSize: shipped.config.contextLength,
      threads: 1,
      flashAttention: false,
      experimentalKvCacheKeyType: "F32",
      experimentalKvCacheValueType: "F32",
    });
    sequence = context.getSequence();
  });
  afterAll(async () => {
    await context?.dispose();
    await served?.dispose();
  });

  /** llama.cpp's logits at every position of `tokens`, [T·V] row-major. */
  async function llamaCppLogits(tokens: number[]): Promise<Float32Array> {
    const V = shipped.config.vocabSize;
    await sequence.clearHistory();
    const results = await sequence.controlledEvaluate(tokens.map((t) => [t as Token, { generateNext: { logits: true } }]));
    const out = new Float32Array(tokens.length * V).fill(NaN);
    results.forEach((r, t) => {
      for (const [token, logit] of r?.next.logits ?? []) out[t * V + token] = logit;
    });
    return out;
  }

  const examples = sampleExamples({ seed: 21, split: "heldout", count: 3, ...corpus });

  it("tokenizes chat renderings to Anneal's ids", () => {
    for (const e of examples) {
      for (const messages of [withAnswer(e), e.messages]) {
        const text = renderChat(messages, { addGenerationPrompt: messages === e.messages });
        const ours = encodeChat(shipped.tokenizer, messages, { addGenerationPrompt: messages === e.messages }).ids;
        expect(shipped.tokenizer.encode(text, { parseSpecials: true })).toEqual(ours);
        expect(served.tokenize(text, true)).toEqual(ours);
      }
    }
  });

  it("gives the float32 trainer's and the float64 reference's logits", async () => {
    const model = new LlamaModel(shipped.config, { weights: shipped.weights });
    for (const e of examples) {
      const tokens = encodeChat(shipped.tokenizer, withAnswer(e)).ids;
      const theirs = await llamaCppLogits(tokens);
      const ours = model.logits({ tokens: Int32Array.from(tokens), targets: new Int32Array(tokens.length).fill(-1), batchSize: 1, seqLen: tokens.length });
      const reference = referenceForward(shipped.config, shipped.weights, tokens);
      expect(theirs.some(Number.isNaN)).toBe(false);
      expect(maxAbsDiff(theirs, ours)).toBeLessThan(TOLERANCE);
      expect(maxAbsDiff(theirs, reference)).toBeLessThan(TOLERANCE);
    }
  });
});
