// The learning rates a job with `learning_rate: null` gets, by the model's mode: the base's declared
// full or LoRA rates, else LoRA at the full rates × LORA_RATE_FACTOR; a models-file entry declares both.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/config/env";
import { writeTinyModel, type TinyModelFiles } from "@/lib/engine/test-support/tiny-model";
import { TINY_CHAT_2 } from "@/lib/inference/base-models";
import { LORA_RATE_FACTOR, trainableBase, trainingDefaults } from "./trainable-base";

const rates = (d: ReturnType<typeof trainingDefaults>) => [d.defaultRlLearningRate, d.defaultSftLearningRate];

describe("trainingDefaults", () => {
  it("gives full weights the base's rates and LoRA its declared LoRA rates", () => {
    const base = { learningRates: { rl: 1e-4, sft: 3e-3, lora: { rl: 7e-4, sft: 5e-3 } } };
    expect(rates(trainingDefaults(base, "full"))).toEqual([1e-4, 3e-3]);
    expect(rates(trainingDefaults(base, "lora"))).toEqual([7e-4, 5e-3]);
  });

  it("derives LoRA's rates from the full ones when the base declares none for LoRA", () => {
    expect(rates(trainingDefaults({ learningRates: { rl: 1e-4, sft: 3e-4 } }, "lora"))).toEqual([1e-4 * LORA_RATE_FACTOR.rl, 3e-4 * LORA_RATE_FACTOR.sft]);
    expect(rates(trainingDefaults({}, "full"))).toEqual([1e-4, 1e-4]);
    expect(rates(trainingDefaults({}, "lora"))).toEqual([1e-4 * LORA_RATE_FACTOR.rl, 1e-4 * LORA_RATE_FACTOR.sft]);
  });

  it("gives tiny-chat-2's LoRA models the rates bench:learn measured for them", () => {
    expect(rates(trainingDefaults(TINY_CHAT_2, "full"))).toEqual([1e-4, 3e-3]);
    expect(rates(trainingDefaults(TINY_CHAT_2, "lora"))).toEqual([5e-4, 3e-3]);
  });
});

describe("a models-file entry's learning_rates", () => {
  let files: TinyModelFiles | undefined;
  afterEach(() => {
    files?.remove();
    delete process.env.ANNEAL_MODELS_FILE;
    resetEnvCache();
  });

  function listBases(entries: object[]) {
    files = writeTinyModel(3);
    const listing = path.join(files.dir, "models.json");
    fs.writeFileSync(listing, JSON.stringify(entries.map((e) => ({ gguf: files!.model, trainable: true, ...e }))));
    process.env.ANNEAL_MODELS_FILE = listing;
    resetEnvCache();
  }

  it("may declare LoRA's rates beside the full ones, or leave them to the factor", () => {
    listBases([
      { name: "t/declared", learning_rates: { rl: 2e-4, sft: 1e-3, lora: { rl: 1e-3, sft: 4e-3 } } },
      { name: "t/derived", learning_rates: { rl: 2e-4, sft: 1e-3 } },
    ]);
    expect(rates(trainingDefaults(trainableBase("t/declared"), "full"))).toEqual([2e-4, 1e-3]);
    expect(rates(trainingDefaults(trainableBase("t/declared"), "lora"))).toEqual([1e-3, 4e-3]);
    expect(rates(trainingDefaults(trainableBase("t/derived"), "lora"))).toEqual([2e-4 * LORA_RATE_FACTOR.rl, 1e-3 * LORA_RATE_FACTOR.sft]);
  });

  it("refuses a LoRA rate that is not positive", () => {
    listBases([{ name: "t/bad", learning_rates: { rl: 2e-4, sft: 1e-3, lora: { rl: 0, sft: 4e-3 } } }]);
    expect(() => trainableBase("t/bad")).toThrow(/learning_rates\.lora\.rl/);
  });
});
