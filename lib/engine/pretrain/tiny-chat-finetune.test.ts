// Each shipped base is one that fine-tunes: a short SFT run with the real trainer (LlamaModel,
// AdamW) on a reply format the pretraining corpus never uses — answers wrapped in <answer> tags —
// lowers held-out loss on that format well below where it started.

import { describe, expect, it } from "vitest";
import { readLlamaGguf } from "../gguf/llama-gguf";
import { AdamW } from "../model/adamw";
import { LlamaModel } from "../model/llama-model";
import { batchLoss, trainStep } from "../train/train-step";
import { chatBatch } from "./corpus-batches";
import { taggedConversations } from "./tagged-answers";
import { TINY_CHAT_2_GGUF, TINY_CHAT_GGUF } from "./tiny-chat-files";

const STEPS = 12;
const BATCH = 8;
const LR = 1e-3;

describe.each([TINY_CHAT_GGUF, TINY_CHAT_2_GGUF])("fine-tuning the shipped %s", (gguf) => {
  it("lowers held-out loss on a new answer format", () => {
    const { config, weights, tokenizer } = readLlamaGguf(gguf);
    const model = new LlamaModel(config, { weights });
    const optimizer = new AdamW(model.params);
    const train = taggedConversations(3, "train", STEPS * BATCH);
    const heldout = chatBatch(tokenizer, taggedConversations(3, "heldout", 32));

    const before = batchLoss(model, heldout);
    const losses = Array.from({ length: STEPS }, (_, s) =>
      trainStep(model, optimizer, chatBatch(tokenizer, train.slice(s * BATCH, (s + 1) * BATCH)), LR).loss,
    );
    const after = batchLoss(model, heldout);

    expect(losses.every(Number.isFinite)).toBe(true);
    expect(after).toBeLessThan(before / 2);
  });
});
