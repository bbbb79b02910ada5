// Learning smoke test: SFT teaches a reply format the model has never produced ("Echo 37" →
// "[37]"): held-out loss falls and greedy replies to held-out prompts take the format.
import { describe, expect, it } from "vitest";
import { AdamW } from "@/lib/engine/model/adamw";
import type { LlamaConfig } from "@/lib/engine/model/config";
import { LlamaModel } from "@/lib/engine/model/llama-model";
import { conversationRows } from "@/lib/engine/train/packed-batch";
import { greedyGenerate } from "@/lib/engine/train/greedy-generate";
import { batchLoss } from "@/lib/engine/train/train-step";
import { Prng } from "@/lib/engine/prng";
import { encodeChat, END_OF_TEXT, IM_END } from "@/lib/engine/tokenizer/chatml";
import { byteTokenizer } from "../test-support/byte-tokenizer";
import { chatFormatOf } from "../test-support/chat-format";
import { planSft } from "./sft-config";
import { sftBatches, sftSteps } from "./sft-step";
import { sftExampleSchema, tokenizeSftExample } from "./tokenize-sft-example";

const tokenizer = byteTokenizer();
const format = chatFormatOf(tokenizer);
const config: LlamaConfig = { vocabSize: tokenizer.vocabSize, dim: 32, nLayers: 2, nHeads: 2, nKvHeads: 1, ffnDim: 64, contextLength: 48, ropeBase: 10000, normEps: 1e-5 };
const example = (n: number) => sftExampleSchema.parse({ messages: [{ role: "user", content: `Echo ${n}` }, { role: "assistant", content: `[${n}]` }] });

describe("SFT learning", () => {
  it("teaches a new reply format", () => {
    const rng = new Prng(3);
    const model = new LlamaModel(config, { seed: 2 });
    const train = Array.from({ length: 480 }, () => tokenizeSftExample(format, example(rng.int(0, 49) * 2), "all", config.contextLength, 0));
    const heldoutNumbers = Array.from({ length: 16 }, (_, i) => 2 * i + 1); // odd: never trained on
    const heldout = conversationRows(heldoutNumbers.flatMap((n) => tokenizeSftExample(format, example(n), "all", config.contextLength, 0)), tokenizer.tokenId(END_OF_TEXT)!, "assistant");
    const formatShare = () => {
      const prompts = heldoutNumbers.map((n) => encodeChat(tokenizer, [{ role: "user", content: `Echo ${n}` }], { addGenerationPrompt: true }).ids);
      const replies = greedyGenerate(model, prompts, { maxNewTokens: 8, stopId: tokenizer.tokenId(IM_END)! });
      return replies.filter((r) => r.stopped && /^\[\d+\]$/.test(tokenizer.decode(r.tokens))).length / replies.length;
    };

    const [lossBefore, shareBefore] = [batchLoss(model, heldout), formatShare()];
    const plan = planSft({ batch_size: 16, learning_rate: 1e-2 }, { defaultRlLearningRate: 1e-4, defaultSftLearningRate: 1e-4 }, train.length);
    for (const _ of sftSteps(model, new AdamW(model.params), tokenizer.tokenId(END_OF_TEXT)!, train, sftBatches(train.length, plan)));
    const [lossAfter, shareAfter] = [batchLoss(model, heldout), formatShare()];

    console.info(`SFT smoke: held-out loss ${lossBefore.toFixed(3)} → ${lossAfter.toFixed(3)}, format share ${shareBefore} → ${shareAfter}`);
    expect(shareBefore).toBe(0);
    expect(lossAfter).toBeLessThan(lossBefore / 3);
    expect(shareAfter).toBeGreaterThanOrEqual(0.9);
  });
});
