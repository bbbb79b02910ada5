// The learning rates a job with `learning_rate: null` gets, by the model's mode: the base's declared
// full or LoRA rates, else LoRA at the full rates × LORA_RATE_FACTOR; a base that trains LoRA only
// declares LoRA rates as its rates. A models-file entry declares both.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/config/env";
import { writeRealLayoutModel } from "@/lib/engine/test-support/real-layout-models";
import { SMALL_SHAPES } from "@/lib/engine/test-support/real-layout-shapes";
import { writeTinyModel, type TinyModelFiles } from "@/lib/engine/test-support/tiny-model";
import { configuredBaseModels, TINY_CHAT_2 } from "@/lib/inference/base-models";
import { defaultRates, LORA_RATE_FACTOR, trainableBaseOf, trainingDefaults } from "./trainable-base";

const rates = (d: ReturnType<typeof trainingDefaults>) => [d.defaultRlLearningRate, d.defaultSftLearningRate];

describe("defaultRates", () => {
  const declared = { rl: 1e-4, sft: 3e-3, lora: { rl: 7e-4, sft: 5e-3 } };

  it("gives full weights the base's rates and LoRA its declared LoRA rates", () => {
    expect(defaultRates(declared, "full", true)).toEqual({ rl: 1e-4, sft: 3e-3 });
    expect(defaultRates(declared, "lora", true)).toEqual({ rl: 7e-4, sft: 5e-3 });
    expect(defaultRates(declared, "lora", false)).toEqual({ rl: 7e-4, sft: 5e-3 });
  });

  it("derives LoRA's rates from the full ones when the base declares none for LoRA", () => {
    expect(defaultRates({ rl: 1e-4, sft: 3e-4 }, "lora", true)).toEqual({ rl: 1e-4 * LORA_RATE_FACTOR.rl, sft: 3e-4 * LORA_RATE_FACTOR.sft });
    expect(defaultRates(undefined, "full", true)).toEqual({ rl: 1e-4, sft: 1e-4 });
    expect(defaultRates(undefined, "lora", true)).toEqual({ rl: 1e-4 * LORA_RATE_FACTOR.rl, sft: 1e-4 * LORA_RATE_FACTOR.sft });
  });

  it("takes a LoRA-only base's rates as they are: they are LoRA rates already", () => {
    expect(defaultRates({ rl: 5e-6, sft: 2e-4 }, "lora", false)).toEqual({ rl: 5e-6, sft: 2e-4 });
    expect(defaultRates(undefined, "lora", false)).toEqual({ rl: 1e-4, sft: 1e-4 });
  });
});

describe("trainingDefaults", () => {
  it("gives tiny-chat-2's LoRA models the rates bench:learn measured for them", () => {
    expect(rates(trainingDefaults(TINY_CHAT_2, "full"))).toEqual([1e-4, 3e-3]);
    expect(rates(trainingDefaults(TINY_CHAT_2, "lora"))).toEqual([5e-4, 3e-3]);
  });

  describe("of a models-file entry", () => {
    let files: TinyModelFiles | undefined;
    afterEach(() => {
      files?.remove();
      delete process.env.ANNEAL_MODELS_FILE;
      resetEnvCache();
    });

    /** Entries over an Anneal-made file (trains full weights or LoRA) and a Qwen3-layout one (LoRA only). */
    function listBases(entries: object[]) {
      files = writeTinyModel(3);
      writeRealLayoutModel(path.join(files.dir, "qwen3.gguf"), SMALL_SHAPES.qwen3, { name: "qwen3-small", seed: 3 });
      const listing = path.join(files.dir, "models.json");
      fs.writeFileSync(listing, JSON.stringify(entries.map((e) => ({ gguf: files!.model, trainable: true, ...e }))));
      process.env.ANNEAL_MODELS_FILE = listing;
      resetEnvCache();
    }

    it("may declare LoRA's rates beside the full ones, or leave them to the factor", () => {
      listBases([
        { name: "t/declared", learning_rates: { rl: 2e-4, sft: 1e-3, lora: { rl: 1e-3, sft: 4e-3 } } },
        { name: "t/derived", learning_rates: { rl: 2e-4, sft: 1e-3 } },
        { name: "t/qwen3", gguf: "qwen3.gguf", learning_rates: { rl: 5e-6, sft: 2e-4 } },
      ]);
      expect(rates(trainingDefaults(trainableBaseOf(configuredBaseModels(), "t/declared"), "full"))).toEqual([2e-4, 1e-3]);
      expect(rates(trainingDefaults(trainableBaseOf(configuredBaseModels(), "t/declared"), "lora"))).toEqual([1e-3, 4e-3]);
      expect(rates(trainingDefaults(trainableBaseOf(configuredBaseModels(), "t/derived"), "lora"))).toEqual([2e-4 * LORA_RATE_FACTOR.rl, 1e-3 * LORA_RATE_FACTOR.sft]);
      expect(rates(trainingDefaults(trainableBaseOf(configuredBaseModels(), "t/qwen3"), "lora"))).toEqual([5e-6, 2e-4]);
    });

    it("refuses a LoRA rate that is not positive", () => {
      listBases([{ name: "t/bad", learning_rates: { rl: 2e-4, sft: 1e-3, lora: { rl: 0, sft: 4e-3 } } }]);
      expect(() => trainableBaseOf(configuredBaseModels(), "t/bad")).toThrow(/learning_rates\.lora\.rl/);
    });
  });
});
