// A Qwen3 or Llama 3 GGUF trains on the tokens the engine serves it: the prompt serving builds for a
// chat request (buildPrompt, the engine thread's own) is exactly the context an SFT example or a
// trajectory puts before each trained turn, tokenized by llama.cpp (the file loaded
// vocabulary-only), with tools and with Qwen3's <think> turns; each trained turn ends at the
// template's end-of-turn token (Llama 3's <|eot_id|>, not its EOS), and sampled tokens named
// `token_id:N` are trained as those ids; chat_template_kwargs (Qwen3's enable_thinking) render the
// trained prompts as they rendered the served ones. The models are random-weight files with the real
// tokenizers and chat templates; Anneal's own models keep Anneal's tokenizer.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LlamaModel, Token } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getLlamaRuntime } from "@/lib/engine/serving/llama-runtime";
import { loadTrainingVocabulary, type LoadedVocabulary } from "@/lib/engine/serving/llama-cpp-vocabulary";
import { writeRealLayoutModel } from "@/lib/engine/test-support/real-layout-models";
import { SMALL_SHAPES, type RealLayoutShape } from "@/lib/engine/test-support/real-layout-shapes";
import { writeTinyModel, type TinyModelFiles } from "@/lib/engine/test-support/tiny-model";
import { chatCompletionRequestSchema } from "@/lib/inference/chat-request";
import { sftExampleSchema, tokenizeSftExample } from "@/lib/training/sft/tokenize-sft-example";
import { parseTrajectoryGroups } from "@/lib/training/trajectories/parse-trajectory-groups";
import { tokenizeTrajectory } from "@/lib/training/trajectories/tokenize-trajectory";
import { buildPrompt } from "./prompt";

const tools = [
  {
    type: "function",
    function: { name: "get_weather", description: "Current weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
  },
];
const toolMessages = [
  { role: "system", content: "You are terse." },
  { role: "user", content: "Weather in Zürich? Answer in °C, e.g. 21.5 — thanks!" },
  { role: "assistant", content: "", tool_calls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city": "Zürich"}' } }] },
  { role: "tool", tool_call_id: "c1", content: '{"temp_c": 21.5}' },
  { role: "assistant", content: "It's 21.5 °C in Zürich." },
];
const THINKING = "<think>\nCheck divisors up to 31: none divide 1013.\n</think>\n\nYes, 1013 is prime.";
const thinkingMessages = [
  { role: "user", content: "Is 1013 prime?" },
  { role: "assistant", content: THINKING },
  { role: "user", content: "And 1019?" },
  { role: "assistant", content: "<think>\nNo divisor up to 31.\n</think>\n\nYes." },
];

const CONTEXT = 4096;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-real-parity-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Variant {
  label: string;
  shape: RealLayoutShape;
  /** The end-of-turn token the template writes after an assistant message. */
  endOfTurn: string;
  /** The final assistant turn of each conversation as trained, decoded. */
  trainedTool: string;
  trainedThinking: string;
}

const VARIANTS: Variant[] = [
  {
    label: "qwen3 (Qwen3's tokenizer and template)",
    shape: SMALL_SHAPES.qwen3,
    endOfTurn: "<|im_end|>",
    // Qwen3's template writes the last assistant turn after a (here empty) <think> block.
    trainedTool: "<think>\n\n</think>\n\nIt's 21.5 °C in Zürich.<|im_end|>",
    // The last turn keeps its reasoning; the earlier one is re-rendered without it (a row of its own).
    trainedThinking: "<think>\nNo divisor up to 31.\n</think>\n\nYes.<|im_end|>",
  },
  {
    label: "llama (Llama 3's tokenizer and template)",
    shape: SMALL_SHAPES.llamaTiedRopeFreqs,
    endOfTurn: "<|eot_id|>",
    trainedTool: "It's 21.5 °C in Zürich.<|eot_id|>",
    trainedThinking: "<think>\nNo divisor up to 31.\n</think>\n\nYes.<|eot_id|>",
  },
];

describe.each(VARIANTS)("$label", (v) => {
  let served: LlamaModel;
  let loaded: LoadedVocabulary;

  beforeAll(async () => {
    const file = path.join(dir, `${v.shape.arch}.gguf`);
    writeRealLayoutModel(file, v.shape, { seed: 3 });
    served = await (await getLlamaRuntime()).loadModel({ modelPath: file });
    loaded = await loadTrainingVocabulary(file);
  }, 120_000); // writes and loads a model with a 150k-token vocabulary: seconds, more on a loaded machine
  afterAll(async () => {
    await loaded?.close();
    await served?.dispose();
  });

  /** The prompt the engine builds for a chat request of these messages. */
  const servedPrompt = (messages: object[], extra: object = {}) =>
    buildPrompt(served, CONTEXT, chatCompletionRequestSchema.parse({ model: "m", messages, tools, ...extra })).tokens;
  const decode = (ids: readonly number[]) => new TextDecoder().decode(loaded.vocabulary.decodeBytes(ids));

  it("is llama.cpp's vocabulary: its size, its specials, its pad and its end-of-turn tokens", () => {
    const { vocabulary } = loaded;
    expect(vocabulary.vocabSize).toBe(v.shape.vocabSize);
    expect(vocabulary.encode(`hi${v.endOfTurn}`, true)).toEqual(served.tokenize(`hi${v.endOfTurn}`, true));
    expect(vocabulary.encode(v.endOfTurn, false)).toEqual(served.tokenize(v.endOfTurn, false));
    expect(vocabulary.stopIds).toContain(served.tokenize(v.endOfTurn, true)[0]);
    expect(vocabulary.stopIds).toContain(served.tokens.eos);
    expect(vocabulary.padId).toBe(v.shape.arch === "llama" ? served.tokens.eos : vocabulary.tokenId("<|endoftext|>"));
    expect(vocabulary.tokenId(v.endOfTurn)).toBe(served.tokenize(v.endOfTurn, true)[0]);
    expect(vocabulary.tokenId("Ġthe")).toBe(served.tokenize(" the", false)[0]);
  });

  /** The row whose trained tokens start right after the prompt served for messages[0, at). */
  const rowAfter = (rows: readonly { ids: number[]; assistantMask: Uint8Array }[], prompt: readonly number[]) =>
    rows.find((r) => r.assistantMask[prompt.length - 1] === 0 && r.assistantMask[prompt.length] === 1 && prompt.every((id, i) => r.ids[i] === id));

  it("trains an SFT example with tools on the prompts serving builds, through the end of each turn", () => {
    const example = sftExampleSchema.parse({ messages: toolMessages, tools });
    const rows = tokenizeSftExample(loaded.vocabulary.format, example, "all", CONTEXT, 0);
    // Each trained turn follows exactly the prompt served for the messages before it.
    for (const at of [2, 4]) expect(rowAfter(rows, servedPrompt(toolMessages.slice(0, at))), `no row continues the served prompt for messages[${at}]`).toBeDefined();
    // The whole conversation as the engine renders it (Llama 3.0's template then opens another turn).
    const final = rows.at(-1)!;
    const whole = servedPrompt(toolMessages, { add_generation_prompt: false });
    expect(whole.slice(0, final.ids.length)).toEqual(final.ids);
    const prompt = servedPrompt(toolMessages.slice(0, 4));
    expect(decode(final.ids.slice(prompt.length))).toBe(v.trainedTool);
    // Qwen3's template drops the tool call's empty <think> block once the call is history: the
    // call's turn is a row of its own.
    expect(rows).toHaveLength(v.shape.arch === "qwen3" ? 2 : 1);
    if (v.shape.arch === "qwen3") expect(decode(rows[0].ids)).toContain("<|im_start|>assistant\n<think>\n\n</think>\n\n<tool_call>");
    const trained = rows.reduce((n, r) => n + r.assistantMask.reduce((a, b) => a + b, 0), 0);
    console.info(`${v.shape.arch}: tools SFT rows of ${rows.map((r) => r.ids.length).join(" and ")} tokens, ${trained} trained`);
  });

  it("trains Qwen3-style <think> turns on the prompts serving builds", () => {
    const example = sftExampleSchema.parse({ messages: thinkingMessages });
    const rows = tokenizeSftExample(loaded.vocabulary.format, example, "all", CONTEXT, 0);
    for (const at of [1, 3]) {
      expect(rowAfter(rows, servedPrompt(thinkingMessages.slice(0, at), { tools: undefined })), `no row continues the served prompt for messages[${at}]`).toBeDefined();
    }
    const final = rows.at(-1)!;
    const prompt = servedPrompt(thinkingMessages.slice(0, 3), { tools: undefined });
    expect(decode(final.ids.slice(prompt.length))).toBe(v.trainedThinking);
    expect(servedPrompt(thinkingMessages, { tools: undefined, add_generation_prompt: false }).slice(0, final.ids.length)).toEqual(final.ids);
    if (v.shape.arch === "qwen3") {
      // Qwen3's template drops the first turn's reasoning once a later user message follows.
      expect(rows).toHaveLength(2);
      expect(decode(rows[0].ids)).toContain(THINKING);
      expect(decode(prompt)).not.toContain("Check divisors");
      console.info(`qwen3: <think> rows of ${rows.map((r) => r.ids.length).join(" and ")} tokens`);
    }
  });

  it("renders chat_template_kwargs as serving does: Qwen3's enable_thinking false, with tools", () => {
    const kwargs = { enable_thinking: false };
    const messages = toolMessages.slice(0, 4);
    const prompt = servedPrompt(messages, { chat_template_kwargs: kwargs });
    const sampled = [...served.tokenize(" 21.5 °C", false), served.tokenize(v.endOfTurn, true)[0]];
    const choice = {
      message: { role: "assistant", content: served.detokenize(sampled.slice(0, -1) as Token[], true) },
      logprobs: { content: sampled.map((id) => ({ token: `token_id:${id}`, logprob: -0.5 })) },
    };
    const rowsOf = (chat_template_kwargs?: object) => {
      const [group] = parseTrajectoryGroups([{ trajectories: [{ messages_and_choices: [...messages, choice], tools, chat_template_kwargs, reward: 1 }] }]);
      return tokenizeTrajectory(loaded.vocabulary.format, loaded.vocabulary, group.trajectories[0], { group: 0, trajectory: 0 }, CONTEXT);
    };
    expect(rowsOf(kwargs).map((r) => r.ids)).toEqual([[...prompt, ...sampled]]);
    // An SFT example with the same kwargs trains its final turn after the same prompt.
    const example = sftExampleSchema.parse({ messages: toolMessages, tools, chat_template_kwargs: kwargs });
    const final = tokenizeSftExample(loaded.vocabulary.format, example, "last", CONTEXT, 0).at(-1)!;
    expect(final.ids.slice(0, prompt.length)).toEqual(servedPrompt(toolMessages.slice(0, 4), { chat_template_kwargs: kwargs }));
    expect(final.assistantMask.indexOf(1)).toBe(prompt.length);
    if (v.shape.arch === "qwen3") {
      // The empty reasoning block is the prompt's now, not the trained turn's; without the kwargs
      // training would render another prompt than the one served.
      expect(decode(prompt).endsWith("<|im_start|>assistant\n<think>\n\n</think>\n\n")).toBe(true);
      expect(decode(final.ids.slice(prompt.length))).toBe("It's 21.5 °C in Zürich.<|im_end|>");
      expect(rowsOf()[0].ids.slice(0, prompt.length)).not.toEqual(prompt);
      expect(rowsOf()[0].ids.slice(0, -sampled.length)).toEqual(servedPrompt(messages));
    }
  });

  it("trains a sampled completion named by token_id:N as those ids, after the served prompt", async () => {
    const messages = toolMessages.slice(0, 4);
    const prompt = servedPrompt(messages);
    // The engine's sampler would pick these; any ids do, including ones whose text re-tokenizes differently.
    const sampled = [...served.tokenize(" 21.5 °C", false), served.tokenize(v.endOfTurn, true)[0]];
    const choice = {
      index: 0, finish_reason: "stop",
      message: { role: "assistant", content: served.detokenize(sampled.slice(0, -1) as Token[], true) },
      logprobs: { content: sampled.map((id, k) => ({ token: `token_id:${id}`, logprob: -0.25 * (k + 1) })) },
    };
    const [group] = parseTrajectoryGroups([{ trajectories: [{ messages_and_choices: [...messages, choice], tools, reward: 1 }] }]);
    const [row, ...more] = tokenizeTrajectory(loaded.vocabulary.format, loaded.vocabulary, group.trajectories[0], { group: 0, trajectory: 0 }, CONTEXT);
    expect(more).toEqual([]);
    expect(row.ids).toEqual([...prompt, ...sampled]);
    expect([...row.trainable]).toEqual([...prompt.map(() => 0), ...sampled.map(() => 1)]);
    expect([...row.oldLogprobs.slice(prompt.length)]).toEqual(sampled.map((_, k) => -0.25 * (k + 1)));
    // The same tokens named by their bytes, as a client without token ids sends them.
    const byBytes = { ...choice, logprobs: { content: sampled.map((id) => ({ token: "?", bytes: [...loaded.vocabulary.decodeBytes([id])] })) } };
    const [g2] = parseTrajectoryGroups([{ trajectories: [{ messages_and_choices: [...messages, byBytes], tools, reward: 1 }] }]);
    expect(tokenizeTrajectory(loaded.vocabulary.format, loaded.vocabulary, g2.trajectories[0], { group: 0, trajectory: 0 }, CONTEXT)[0].ids).toEqual(row.ids);
  });
});

describe("Anneal's own model", () => {
  let files: TinyModelFiles;
  let loaded: LoadedVocabulary;
  beforeAll(async () => {
    files = writeTinyModel(5);
    loaded = await loadTrainingVocabulary(files.model);
  });
  afterAll(async () => {
    await loaded?.close();
    files?.remove();
  });

  it("keeps Anneal's tokenizer, its pad and its end of turn", () => {
    const tok = files.tokenizer;
    const text = "<|im_start|>user\nWhat is 2 + 2?<|im_end|>\n";
    expect(loaded.vocabulary.encode(text, true)).toEqual(tok.encode(text, { parseSpecials: true }));
    expect(loaded.vocabulary.format.tokenize(text)).toEqual(tok.encode(text, { parseSpecials: true }));
    expect(loaded.vocabulary.padId).toBe(tok.tokenId("<|endoftext|>"));
    expect(loaded.vocabulary.stopIds).toEqual([tok.tokenId("<|im_end|>")]);
    expect(loaded.vocabulary.vocabSize).toBe(tok.vocabSize);
  });
});
