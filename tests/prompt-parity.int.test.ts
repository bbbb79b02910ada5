import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLlamaGguf, type LlamaGgufContents } from "@/lib/engine/gguf/llama-gguf";
import { loadTrainingVocabulary, type LoadedVocabulary } from "@/lib/engine/serving/llama-cpp-vocabulary";
import { writeRealLayoutModel } from "@/lib/engine/test-support/real-layout-models";
import { SMALL_SHAPES, type RealLayoutShape } from "@/lib/engine/test-support/real-layout-shapes";
import type { ChatFormat } from "@/lib/engine/tokenizer/chat-template";
import type { TrainingVocabulary } from "@/lib/engine/tokenizer/training-vocabulary";
import { chatFormatFromGguf } from "@/lib/engine/tokenizer/tokenizer-gguf";
import { chatCompletionSchema, type ChatCompletion } from "@/lib/inference/chat-response";
import { parseTrajectoryGroups } from "@/lib/training/trajectories/parse-trajectory-groups";
import type { TrainingRow } from "@/lib/training/trajectories/tokenize-conversation";
import { tokenizeTrajectory } from "@/lib/training/trajectories/tokenize-trajectory";
import { sftExampleSchema, tokenizeSftExample } from "@/lib/training/sft/tokenize-sft-example";
import { api, json } from "./http";
import { createTestUser, type TestUser } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";

// Serving and training render a conversation through one renderer: the tokens a served completion
// was sampled after (prompt_token_ids) are exactly the context training puts before that completion's
// tokens, which it trains as sampled (token_ids, with their logprobs), for conversations with and
// without tools, multi-part content and every role. The real engine serves; the real trajectory and
// SFT tokenizers read the same GGUF the way a training job does. A Qwen3 and a Llama 3 GGUF
// (random weights, real tokenizers and templates) are served too, and their trajectories tokenized
// by the vocabulary a training job loads for them (llama.cpp's), with the chat_template_kwargs they
// were served with.

let fixture: InferenceFixture;
let user: TestUser;
let model: LlamaGgufContents;
let format: ChatFormat;

/** Real-layout models, served under these names. */
const REAL: { name: string; shape: RealLayoutShape; endOfTurn: string }[] = [
  { name: "test/qwen3", shape: SMALL_SHAPES.qwen3, endOfTurn: "<|im_end|>" },
  { name: "test/llama3", shape: SMALL_SHAPES.llamaTiedRopeFreqs, endOfTurn: "<|eot_id|>" },
];
const realDir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-parity-real-"));
const realFile = (name: string) => path.join(realDir, `${name.replace("/", "-")}.gguf`);

beforeAll(async () => {
  for (const r of REAL) writeRealLayoutModel(realFile(r.name), r.shape, { seed: 3 });
  fixture = installInferenceModels(REAL.map((r) => ({ name: r.name, gguf: realFile(r.name) })));
  user = await createTestUser();
  model = readLlamaGguf(fixture.files.model);
  format = chatFormatFromGguf(model.metadata, model.tokenizer); // as a training job reads its start
});
afterAll(() => {
  fixture.remove();
  fs.rmSync(realDir, { recursive: true, force: true });
});

// Small, as the test model's context is 256 tokens of a 384-token vocabulary.
const tools = [{ type: "function", function: { name: "add" } }];
const toolCall = { id: "call_1", type: "function", function: { name: "add", arguments: '{"a": 2}' } };

interface Served {
  completion: ChatCompletion;
  /** The choice as a client puts it in a trajectory. */
  choice: Record<string, unknown>;
  /** The assistant message a client sends back in its next request. */
  reply: Record<string, unknown>;
}

async function serve(messages: object[], extra: Record<string, unknown> = {}): Promise<Served> {
  const body = { model: "test/tiny", messages, max_tokens: 6, seed: 3, return_token_ids: true, logprobs: true, ...extra };
  const { status, body: out } = await json(api("POST", "/v1/chat/completions", { bearer: user.key, body }));
  expect(status, JSON.stringify(out)).toBe(200);
  const completion = chatCompletionSchema.parse(out);
  const [choice] = completion.choices;
  return { completion, choice, reply: { role: "assistant", content: choice.message.content } };
}

function training(messages_and_choices: object[], withTools: boolean): TrainingRow[] {
  const [group] = parseTrajectoryGroups([{ trajectories: [{ messages_and_choices, reward: 1, ...(withTools && { tools }) }] }]);
  return tokenizeTrajectory(format, model.tokenizer, group.trajectories[0], { group: 0, trajectory: 0 }, 256);
}

/** A trajectory's rows as a training job on a real model tokenizes them. */
function trainingWith(vocabulary: TrainingVocabulary, messages_and_choices: object[], withTools: object[] | null, chat_template_kwargs?: object): TrainingRow[] {
  const [group] = parseTrajectoryGroups([{ trajectories: [{ messages_and_choices, reward: 1, tools: withTools, chat_template_kwargs }] }]);
  return tokenizeTrajectory(vocabulary.format, vocabulary, group.trajectories[0], { group: 0, trajectory: 0 }, 4096);
}

/** Each served completion's prompt and sampled tokens start one of the rows, its tokens trained with
 *  their logprobs, and nothing else is trained. */
function expectTrainedAsServed(rows: TrainingRow[], served: Served[]): void {
  for (const { completion } of served) {
    const prompt = completion.prompt_token_ids!;
    const sampled = completion.choices[0].token_ids!;
    const row = rows.find((r) => r.ids.length >= prompt.length + sampled.length && prompt.every((id, i) => r.ids[i] === id));
    expect(row, `no training row starts with the served prompt ${JSON.stringify(prompt)}; rows: ${JSON.stringify(rows.map((r) => r.ids))}`).toBeDefined();
    const at = prompt.length;
    expect(row!.ids.slice(at, at + sampled.length)).toEqual(sampled);
    expect([...row!.trainable.slice(at, at + sampled.length)]).toEqual(sampled.map(() => 1));
    expect([...row!.oldLogprobs.slice(at, at + sampled.length)]).toEqual(completion.choices[0].logprobs!.content!.map((e) => Math.fround(e.logprob)));
  }
  const trained = rows.reduce((n, r) => n + r.trainable.reduce((a, b) => a + b, 0), 0);
  expect(trained).toBe(served.reduce((n, s) => n + s.completion.choices[0].token_ids!.length, 0));
}

describe("the tokens a served completion saw are the tokens training sees", () => {
  it("a plain conversation: system and user", async () => {
    const messages = [{ role: "system", content: "Be brief." }, { role: "user", content: "What is 2 + 2?" }];
    const served = await serve(messages);
    expectTrainedAsServed(training([...messages, served.choice], false), [served]);
  });

  it("multi-part content and a developer message", async () => {
    const messages = [
      { role: "developer", content: [{ type: "text", text: "Answer in digits." }] },
      { role: "user", content: [{ type: "text", text: "Add 2" }, { type: "text", text: "and 3." }] },
    ];
    const served = await serve(messages);
    expectTrainedAsServed(training([...messages, served.choice], false), [served]);
  });

  it("tools, an assistant's tool calls, tool results and a second sampled turn", async () => {
    const opening = [
      { role: "system", content: "Use tools." },
      { role: "user", content: "Add 2." },
      { role: "assistant", content: "", tool_calls: [toolCall] },
      { role: "tool", tool_call_id: "call_1", content: "4" },
      { role: "tool", tool_call_id: "call_1", content: "done" },
    ];
    const first = await serve(opening, { tools });
    const later = [{ role: "user", content: "Again." }];
    const second = await serve([...opening, first.reply, ...later], { tools });
    expect(model.tokenizer.decode(first.completion.prompt_token_ids!)).toMatch(/^<\|im_start\|>system\nUse tools\.\n\n<tools>\n\{"type": "function"/);
    expectTrainedAsServed(training([...opening, first.choice, ...later, second.choice], true), [first, second]);
  });

  it("a turn sampled as its text tokenizes shares one row with the turn after it", async () => {
    const opening = [{ role: "user", content: "2 + 2?" }];
    const four = model.tokenizer.encode("4");
    const first = await serve(opening, { max_tokens: 1, allowed_token_ids: four });
    const later = [{ role: "user", content: "Again." }];
    const second = await serve([...opening, first.reply, ...later]);
    const rows = training([...opening, first.choice, ...later, second.choice], false);
    expect(rows).toHaveLength(1);
    expectTrainedAsServed(rows, [first, second]);
  });

  it("tools without a system message", async () => {
    const messages = [{ role: "user", content: "Add 2." }];
    const served = await serve(messages, { tools });
    expectTrainedAsServed(training([...messages, served.choice], true), [served]);
  });
});

describe("SFT examples render as served prompts", () => {
  it("each trained assistant turn follows the prompt serving renders for the messages before it", async () => {
    const messages = [
      { role: "system", content: "Use tools." },
      { role: "user", content: [{ type: "text", text: "Add" }, { type: "text", text: "2." }] },
      { role: "assistant", content: "", tool_calls: [toolCall] },
      { role: "tool", tool_call_id: "call_1", content: "4" },
      { role: "assistant", content: "It is 4." },
    ];
    const example = sftExampleSchema.parse({ messages, tools });
    const { completion: before } = await serve(messages.slice(0, -1), { tools });
    const { completion: whole } = await serve(messages, { tools, add_generation_prompt: false, max_tokens: 1 });
    const [encoded, ...more] = tokenizeSftExample(format, example, "last", 256, 0);
    expect(more).toEqual([]);
    const prompt = before.prompt_token_ids!;
    expect(encoded.ids.slice(0, prompt.length)).toEqual(prompt);
    expect(encoded.assistantMask.indexOf(1)).toBe(prompt.length);
    // The trained turn is the template's own rendering of the final message, through its end of turn.
    expect(encoded.ids).toEqual(whole.prompt_token_ids!.slice(0, encoded.ids.length));
    expect(model.tokenizer.decode(encoded.ids.slice(prompt.length))).toBe("It is 4.<|im_end|>");
  });
});

describe.each(REAL)("$name: a trajectory of served completions trains on the ids served", ({ name, endOfTurn }) => {
  let loaded: LoadedVocabulary;
  beforeAll(async () => {
    loaded = await loadTrainingVocabulary(realFile(name)); // as the training thread loads it
  });
  afterAll(() => loaded?.close());

  const weather = [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } } }];
  const asIds = { model: name, return_tokens_as_token_ids: true, max_tokens: 8 };

  it("tools, a tool call and its result, then two sampled turns", async () => {
    const opening = [
      { role: "system", content: "You are terse." },
      { role: "user", content: "Weather in Zürich?" },
      { role: "assistant", content: "", tool_calls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city": "Zürich"}' } }] },
      { role: "tool", tool_call_id: "c1", content: '{"temp_c": 21.5}' },
    ];
    const first = await serve(opening, { ...asIds, tools: weather });
    const later = [{ role: "user", content: "In °F?" }];
    const second = await serve([...opening, first.reply, ...later], { ...asIds, tools: weather });
    expect(first.completion.choices[0].logprobs!.content![0].token).toMatch(/^token_id:\d+$/);
    const rows = trainingWith(loaded.vocabulary, [...opening, first.choice, ...later, second.choice], weather);
    expectTrainedAsServed(rows, [first, second]);
    const tokens = (s: Served) => s.completion.prompt_token_ids!.length + s.completion.choices[0].token_ids!.length;
    console.info(`${name}: tools trajectory, served ${tokens(first)} + ${tokens(second)} tokens, trained in ${rows.length} row(s)`);
  });

  it("served with chat_template_kwargs (Qwen3's enable_thinking: false) and tools: trained with the same kwargs", async () => {
    const kwargs = { enable_thinking: false };
    const opening = [{ role: "system", content: "You are terse." }, { role: "user", content: "Weather in Zürich?" }];
    const served = await serve(opening, { ...asIds, tools: weather, chat_template_kwargs: kwargs });
    const messages = [...opening, served.choice];
    expectTrainedAsServed(trainingWith(loaded.vocabulary, messages, weather, kwargs), [served]);
    if (name === "test/qwen3") {
      const prompt = new TextDecoder().decode(loaded.vocabulary.decodeBytes(served.completion.prompt_token_ids!));
      expect(prompt).toMatch(/<\|im_start\|>assistant\n<think>\n\n<\/think>\n\n$/);
      // Without them training renders another prompt than the one served.
      expect(() => expectTrainedAsServed(trainingWith(loaded.vocabulary, messages, weather), [served])).toThrow(/no training row starts with the served prompt/);
    }
  });

  it("a sampled <think> turn after an earlier reasoning turn, then a turn of just the end-of-turn token", async () => {
    const opening = [
      { role: "user", content: "Is 1013 prime?" },
      { role: "assistant", content: "<think>\nCheck divisors up to 31.\n</think>\n\nYes." },
      { role: "user", content: "And 1019?" },
    ];
    // The sampler may only write reasoning tags, "Yes" and "No" (hot, so not only the likeliest).
    const allowed = [...new Set(loaded.vocabulary.encode("<think></think> Yes No", true))];
    const first = await serve(opening, { ...asIds, allowed_token_ids: allowed, temperature: 2, seed: 5 });
    // Then a turn that ends at once: the end-of-turn token is sampled, and trained, as any other.
    const stop = loaded.vocabulary.encode(endOfTurn, true);
    expect(stop).toHaveLength(1);
    const later = [{ role: "user", content: "Sure?" }];
    const second = await serve([...opening, first.reply, ...later], { ...asIds, logit_bias: { [stop[0]]: 100 } });
    expect(second.completion.choices[0].token_ids).toEqual(stop);
    expect(second.completion.choices[0].finish_reason).toBe("stop");
    const rows = trainingWith(loaded.vocabulary, [...opening, first.choice, ...later, second.choice], null);
    expectTrainedAsServed(rows, [first, second]);
    const sampled = first.completion.choices[0].token_ids!;
    if (name === "test/qwen3") expect(sampled).toContain(loaded.vocabulary.tokenId("<think>"));
    console.info(`${name}: think trajectory, sampled ${JSON.stringify(first.reply.content)} (${sampled.length} tokens), ${rows.length} row(s)`);
  });
});
