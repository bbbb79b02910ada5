// The model card reports held-out accuracy per family and, for a curriculum model, per level, and
// describes the curriculum it was trained on.

import { describe, expect, it } from "vitest";
import { CURRICULUM } from "../corpus/generate";
import { LlamaModel } from "../model/llama-model";
import { TINY_CONFIG, randomWeights, tinyTokenizer } from "../test-support/tiny-model";
import { evaluateHeldout } from "./evaluate-heldout";
import { modelCard } from "./model-card";
import { TINY_CHAT_2_SETTINGS, TINY_CHAT_SETTINGS, type RunSettings } from "./run-settings";

const tokenizer = tinyTokenizer();
const config = { ...TINY_CONFIG, vocabSize: tokenizer.vocabSize };
const model = new LlamaModel(config, { weights: randomWeights(config, 3) });

function card(settings: RunSettings): string {
  const config = { ...model.config, contextLength: settings.model.contextLength };
  const scores = evaluateHeldout(model, tokenizer, { seed: 11, perFamily: 2, maxNewTokens: 2, version: settings.corpusVersion });
  return modelCard({
    config,
    parameters: model.params.count,
    settings,
    trained: { step: 1, tokens: 10, conversations: 1, trainingSeconds: 1, lastLoss: 1 },
    heldoutLoss: 1,
    scores,
    sweep: { before: 2, points: [{ lr: 1e-3, heldoutLoss: 1 }] },
    sweepOptions: { rates: [1e-3], steps: 1, batchSize: 1, seed: 1 },
  });
}

describe("model card", () => {
  it("scores a curriculum model per family and level, and lists the levels", () => {
    const text = card(TINY_CHAT_2_SETTINGS);
    expect(text).toMatch(/^# tiny-chat-2\n/);
    for (const [family, levels] of Object.entries(CURRICULUM)) {
      expect(text).toContain(`| ${family} | ${levels.map((l) => l.describe).join(" | ")} |`);
      for (let level = 1; level <= levels.length; level++) expect(text).toMatch(new RegExp(`\\| ${family} \\| ${level} \\| \\d+/2 \\(\\d+%\\)[^|]* \\| \\d+% \\|`));
    }
    expect(text).toContain("| dialogue | 1 | ");
    expect(text).toContain("on training prompts: the level has no held-out prompt");
    expect(text).toContain("| all | | ");
    expect(text).toContain("npm run pretrain -- --base tiny-chat-2");
  });

  it("scores a version-1 model per family only", () => {
    const text = card(TINY_CHAT_SETTINGS);
    expect(text).toMatch(/^# tiny-chat\n/);
    expect(text).toMatch(/\| arithmetic \| \d+\/2 \(\d+%\) \| \d+% \|/);
    expect(text).not.toContain("level 1");
    expect(text).toContain("more than the 128-token context");
  });
});
