import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLoraGguf, writeLoraGguf } from "../gguf/lora-gguf";
import { trainableLayout } from "../gguf/llama-gguf";
import { openGguf } from "../gguf/read-gguf";
import type { LlamaConfig } from "../model/config";
import { writeRealLayoutModel } from "../test-support/real-layout-models";
import { writeRealLayoutLora } from "../test-support/real-layout-lora";
import { SMALL_SHAPES, type RealLayoutShape } from "../test-support/real-layout-shapes";
import { AdapterMismatchError } from "./adapter-errors";
import { readPeftZip, writePeftZip } from "./peft-adapter";
import { permuteQkRows, unpermuteQkRows } from "./qk-permutation";
import { readZip, writeZip } from "./zip";

// The PEFT export as Hugging Face PEFT and vLLM read it, field by field, and GGUF → PEFT → GGUF bit
// for bit on the real layouts: llama (q/k B rows permuted), qwen2 and qwen3 (not).

const CAP = 64 << 20;
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-peft-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The base's config (from a random-weight file of the shape) and a random rank-8 adapter on it. */
function fixture(label: string, shape: RealLayoutShape, targets?: string[]) {
  const modelPath = path.join(dir, `${label}.gguf`);
  if (!fs.existsSync(modelPath)) writeRealLayoutModel(modelPath, shape, { seed: 3 });
  const file = openGguf(modelPath);
  const { config } = trainableLayout(file);
  file.close();
  const loraPath = path.join(dir, `${label}-${targets?.join("-") ?? "all"}-lora.gguf`);
  writeRealLayoutLora(loraPath, shape, { rank: 8, alpha: 16, seed: 4, targets });
  return { config, loraPath, ...readLoraGguf(loraPath, config) };
}

/** safetensors' header, read by hand (not by the reader under test). */
function safetensorsHeader(bytes: Uint8Array): Record<string, { dtype: string; shape: number[]; data_offsets: [number, number] }> {
  const length = Number(Buffer.from(bytes).readBigUInt64LE(0));
  const { __metadata__: _, ...tensors } = JSON.parse(Buffer.from(bytes.subarray(8, 8 + length)).toString());
  return tensors;
}

describe("the llama q/k permutation", () => {
  it("is convert_hf_to_gguf.py's LlamaModel.permute: within a head, GGUF row 2j+i is Hugging Face row i·h/2+j", () => {
    // One head of width 4, one column: reshape(1, 2, 2).swapaxes(1, 2) of [0, 1, 2, 3] is [0, 2, 1, 3].
    expect([...permuteQkRows(Float32Array.from([0, 1, 2, 3]), 1, 1)]).toEqual([0, 2, 1, 3]);
    // Two heads of width 4, two columns: each head on its own, columns carried along.
    const hf = Float32Array.from({ length: 16 }, (_, i) => i);
    expect([...permuteQkRows(hf, 2, 2)]).toEqual([0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15]);
    expect([...unpermuteQkRows(permuteQkRows(hf, 2, 2), 2, 2)]).toEqual([...hf]);
  });
});

describe("PEFT export", () => {
  it("writes adapter_config.json with exactly the fields PEFT and vLLM read", () => {
    const { config, adapters, alpha } = fixture("qwen2", SMALL_SHAPES.qwen2, ["attn_q", "attn_v", "ffn_down"]);
    const files = readZip(writePeftZip({ config, adapters, alpha, dropout: 0.05, baseModelName: "Qwen/Qwen2.5-0.5B-Instruct" }), { maxUnpackedBytes: CAP });
    expect([...files.keys()]).toEqual(["adapter_config.json", "adapter_model.safetensors"]);
    const adapterConfig = JSON.parse(Buffer.from(files.get("adapter_config.json")!).toString());
    expect(Object.keys(adapterConfig).sort()).toEqual(
      ["base_model_name_or_path", "bias", "fan_in_fan_out", "lora_alpha", "lora_dropout", "peft_type", "r", "target_modules", "task_type"],
    );
    expect(adapterConfig.peft_type).toBe("LORA");
    expect(adapterConfig.task_type).toBe("CAUSAL_LM");
    expect(adapterConfig.base_model_name_or_path).toBe("Qwen/Qwen2.5-0.5B-Instruct");
    expect(adapterConfig.r).toBe(8);
    expect(adapterConfig.lora_alpha).toBe(16);
    expect(adapterConfig.lora_dropout).toBe(0.05);
    expect(adapterConfig.target_modules).toEqual(["q_proj", "v_proj", "down_proj"]);
    expect(adapterConfig.bias).toBe("none");
    expect(adapterConfig.fan_in_fan_out).toBe(false);
  });

  it("writes adapter_model.safetensors in F32 under PEFT's key names, A [r, in] and B [out, r], no .default", () => {
    const { config, adapters, alpha } = fixture("qwen3", SMALL_SHAPES.qwen3);
    const files = readZip(writePeftZip({ config, adapters, alpha, dropout: 0, baseModelName: "Qwen/Qwen3-0.6B" }), { maxUnpackedBytes: CAP });
    const header = safetensorsHeader(files.get("adapter_model.safetensors")!);
    const [dim, q, kv, ffn, r] = [64, 4 * 32, 2 * 32, 128, 8]; // qwen3's small shape: 4 heads (2 for k/v) of width 32
    const expected: Record<string, [number, number]> = {};
    for (let l = 0; l < 2; l++) {
      const at = (parent: string, module: string, inDim: number, out: number) => {
        expected[`base_model.model.model.layers.${l}.${parent}.${module}.lora_A.weight`] = [r, inDim];
        expected[`base_model.model.model.layers.${l}.${parent}.${module}.lora_B.weight`] = [out, r];
      };
      at("self_attn", "q_proj", dim, q);
      at("self_attn", "k_proj", dim, kv);
      at("self_attn", "v_proj", dim, kv);
      at("self_attn", "o_proj", q, dim);
      at("mlp", "gate_proj", dim, ffn);
      at("mlp", "up_proj", dim, ffn);
      at("mlp", "down_proj", ffn, dim);
    }
    expect(Object.keys(header).sort()).toEqual(Object.keys(expected).sort());
    for (const [key, { dtype, shape, data_offsets: [begin, end] }] of Object.entries(header)) {
      expect(key).not.toContain(".default");
      expect(dtype, key).toBe("F32");
      expect(shape, key).toEqual(expected[key]);
      expect(end - begin, key).toBe(4 * shape[0] * shape[1]);
    }
  });

  it("undoes llama's q/k row permutation in B (and only there); qwen's rows are stored as they are", () => {
    const llama = fixture("llama", SMALL_SHAPES.llamaUntied);
    const qwen = fixture("qwen2", SMALL_SHAPES.qwen2);
    const tensorsOf = (f: typeof llama) => {
      const files = readZip(writePeftZip({ ...f, dropout: 0, baseModelName: "x" }), { maxUnpackedBytes: CAP });
      const bytes = files.get("adapter_model.safetensors")!;
      const length = Number(Buffer.from(bytes).readBigUInt64LE(0));
      const header = safetensorsHeader(bytes);
      return (key: string) => {
        const [begin, end] = header[key].data_offsets;
        return new Float32Array(new Uint8Array(bytes.subarray(8 + length + begin, 8 + length + end)).buffer);
      };
    };
    const [llamaPeft, qwenPeft] = [tensorsOf(llama), tensorsOf(qwen)];
    const key = (module: string, half: string) => `base_model.model.model.layers.1.self_attn.${module}.lora_${half}.weight`;
    expect([...llamaPeft(key("q_proj", "B"))]).toEqual([...unpermuteQkRows(llama.adapters["blk.1.attn_q.weight"].b, 4, 8)]);
    expect([...llamaPeft(key("k_proj", "B"))]).toEqual([...unpermuteQkRows(llama.adapters["blk.1.attn_k.weight"].b, 2, 8)]);
    expect([...llamaPeft(key("q_proj", "B"))]).not.toEqual([...llama.adapters["blk.1.attn_q.weight"].b]);
    expect([...llamaPeft(key("q_proj", "A"))]).toEqual([...llama.adapters["blk.1.attn_q.weight"].a]);
    expect([...llamaPeft(key("v_proj", "B"))]).toEqual([...llama.adapters["blk.1.attn_v.weight"].b]);
    expect([...qwenPeft(key("q_proj", "B"))]).toEqual([...qwen.adapters["blk.1.attn_q.weight"].b]);
    expect([...qwenPeft(key("k_proj", "B"))]).toEqual([...qwen.adapters["blk.1.attn_k.weight"].b]);
  });
});

describe.each([
  { label: "llama", shape: SMALL_SHAPES.llamaUntied },
  { label: "llama-tied", shape: SMALL_SHAPES.llamaTiedRopeFreqs },
  { label: "qwen2", shape: SMALL_SHAPES.qwen2 },
  { label: "qwen3", shape: SMALL_SHAPES.qwen3 },
])("GGUF → PEFT → GGUF on $label", ({ label, shape }) => {
  it("is bit-exact", () => {
    const { config, loraPath, adapters, alpha } = fixture(label, shape);
    const back = readPeftZip(writePeftZip({ config, adapters, alpha, dropout: 0, baseModelName: "x" }), config, CAP);
    expect(back.rank).toBe(8);
    expect(back.alpha).toBe(16);
    const [before, after] = [path.join(dir, `${label}-before.gguf`), path.join(dir, `${label}-after.gguf`)];
    writeLoraGguf(before, { config, adapters, alpha });
    writeLoraGguf(after, { config, adapters: back.adapters, alpha: back.alpha });
    expect(fs.readFileSync(after).equals(fs.readFileSync(before))).toBe(true);
    // and tensor by tensor against the file the adapter came from
    const original = readLoraGguf(loraPath, config).adapters;
    expect(Object.keys(back.adapters).sort()).toEqual(Object.keys(original).sort());
    for (const [weight, { a, b }] of Object.entries(original)) {
      expect(Buffer.from(back.adapters[weight].a.buffer).equals(Buffer.from(a.buffer)), weight).toBe(true);
      expect(Buffer.from(back.adapters[weight].b.buffer).equals(Buffer.from(b.buffer)), weight).toBe(true);
    }
  });
});

describe("PEFT import", () => {
  const zipFor = (config: LlamaConfig, f: ReturnType<typeof fixture>) => writePeftZip({ config, adapters: f.adapters, alpha: f.alpha, dropout: 0, baseModelName: "x" });

  it("refuses an adapter of another base's shapes, and PEFT options Anneal's LoRA does not compute", () => {
    const qwen2 = fixture("qwen2", SMALL_SHAPES.qwen2);
    const qwen3 = fixture("qwen3", SMALL_SHAPES.qwen3);
    expect(() => readPeftZip(zipFor(qwen2.config, qwen2), qwen3.config, CAP)).toThrow(AdapterMismatchError);
    expect(() => readPeftZip(zipFor(qwen2.config, qwen2), qwen3.config, CAP)).toThrow(/needs \[/);
    const files = readZip(zipFor(qwen2.config, qwen2), { maxUnpackedBytes: CAP });
    const withConfig = (patch: Record<string, unknown>) =>
      writeZip([
        { name: "my-adapter/adapter_config.json", data: Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(files.get("adapter_config.json")!).toString()), ...patch })) },
        { name: "my-adapter/adapter_model.safetensors", data: files.get("adapter_model.safetensors")! },
      ]);
    expect(readPeftZip(withConfig({ use_dora: false, modules_to_save: null }), qwen2.config, CAP).rank).toBe(8); // in a folder, defaults spelled out
    expect(() => readPeftZip(withConfig({ use_dora: true }), qwen2.config, CAP)).toThrow(/DoRA/);
    expect(() => readPeftZip(withConfig({ use_rslora: true }), qwen2.config, CAP)).toThrow(/rsLoRA/);
    expect(() => readPeftZip(withConfig({ peft_type: "IA3" }), qwen2.config, CAP)).toThrow(/only LoRA/);
    expect(() => readPeftZip(withConfig({ r: 16 }), qwen2.config, CAP)).toThrow(/r = 16 needs/);
  });
});
