// A LoRA adapter trained by the engine, written with writeLoraGguf and applied by llama.cpp to its
// base, gives the next-token log-probs the trainer's LoRA forward computes (flash attention off and
// an F32 KV cache, so llama.cpp computes in F32): what the trainer optimises is what is served.

import path from "node:path";
import type { LlamaContext, LlamaContextSequence, LlamaModel as LlamaCppModel, Token } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withAnswer } from "../corpus/example";
import { sampleExamples } from "../corpus/generate";
import { writeLoraGguf } from "../gguf/lora-gguf";
import { AdamW } from "../model/adamw";
import { LlamaModel } from "../model/llama-model";
import { dropoutSeedFor, LORA_TARGETS, type LoraConfig } from "../model/lora";
import { logSoftmax64 } from "../model/reference";
import { getLlamaRuntime } from "../serving/llama-runtime";
import { writeTinyModel, type TinyModelFiles } from "../test-support/tiny-model";
import { encodeChat } from "../tokenizer/chatml";
import { conversationRows } from "./packed-batch";
import { trainStep } from "./train-step";

const TOLERANCE = 2e-3;
const lora: LoraConfig = { rank: 8, alpha: 16, dropout: 0.1, targets: LORA_TARGETS };

let files: TinyModelFiles;
let served: LlamaCppModel;
let context: LlamaContext;
let sequence: LlamaContextSequence;
let model: LlamaModel;

beforeAll(async () => {
  files = writeTinyModel(3);
  const chats = sampleExamples({ seed: 4, split: "train", count: 4 }).map((e) => encodeChat(files.tokenizer, withAnswer(e)));
  const batch = conversationRows(chats, 0, "assistant");
  model = new LlamaModel(files.config, { weights: files.weights, lora: { config: lora, seed: 1 } });
  const optimizer = new AdamW(model.params, { weightDecay: 0 });
  // A high learning rate so that B moves well away from 0 in a few steps.
  for (let step = 0; step < 4; step++) trainStep(model, optimizer, batch, 0.05, 1, dropoutSeedFor(7, step));

  const adapterFile = path.join(files.dir, "trained-lora.gguf");
  writeLoraGguf(adapterFile, { config: files.config, adapters: model.adapters(), alpha: lora.alpha });
  served = await (await getLlamaRuntime()).loadModel({ modelPath: files.model });
  context = await served.createContext({
    contextSize: files.config.contextLength,
    threads: 1,
    flashAttention: false,
    experimentalKvCacheKeyType: "F32",
    experimentalKvCacheValueType: "F32",
    lora: { adapters: [{ filePath: adapterFile, scale: 1 }] },
  });
  sequence = context.getSequence();
});
afterAll(async () => {
  await context?.dispose();
  await served?.dispose();
  files?.remove();
});

/** llama.cpp's log-softmax at every position of `tokens`, [T·V] row-major. */
async function llamaCppLogprobs(tokens: number[]): Promise<Float64Array> {
  const V = files.config.vocabSize;
  await sequence.clearHistory();
  const results = await sequence.controlledEvaluate(tokens.map((t) => [t as Token, { generateNext: { logits: true } }]));
  const logits = new Float32Array(tokens.length * V).fill(NaN);
  results.forEach((r, t) => {
    for (const [token, logit] of r?.next.logits ?? []) logits[t * V + token] = logit;
  });
  return logSoftmax64(logits, V);
}

describe("a trained LoRA adapter in llama.cpp", () => {
  it("gives the trainer's next-token log-probs", async () => {
    const V = files.config.vocabSize;
    const base = new LlamaModel(files.config, { weights: files.weights });
    let worst = 0;
    let moved = 0;
    for (const e of sampleExamples({ seed: 21, split: "heldout", count: 3 })) {
      const tokens = encodeChat(files.tokenizer, withAnswer(e)).ids;
      const batch = { tokens: Int32Array.from(tokens), targets: new Int32Array(tokens.length).fill(-1), batchSize: 1, seqLen: tokens.length };
      const ours = logSoftmax64(model.logits(batch), V);
      const theirs = await llamaCppLogprobs(tokens);
      const plain = logSoftmax64(base.logits(batch), V);
      expect(theirs.some(Number.isNaN)).toBe(false);
      for (let i = 0; i < ours.length; i++) {
        worst = Math.max(worst, Math.abs(ours[i] - theirs[i]));
        moved = Math.max(moved, Math.abs(ours[i] - plain[i]));
      }
    }
    console.log(`trained LoRA: max |Δlogprob| vs llama.cpp ${worst.toExponential(2)}; the adapter moves log-probs by up to ${moved.toFixed(2)}`);
    expect(worst).toBeLessThan(TOLERANCE);
    expect(moved).toBeGreaterThan(0.1); // the adapter is not a no-op
  });
});
