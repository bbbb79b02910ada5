// Anneal's own models train on exactly the batches they always have: a prepared RL job and SFT
// batches for a spread of conversations (tools, tool calls, multi-part content, several turns,
// sampled tokens named by id, bytes and text, choices without logprobs, additional histories),
// hashed. The hashes were taken before training read its vocabulary through an interface that
// llama.cpp's tokenizer also implements; a change to any id, mask, logprob or pad fails here. Retaken
// once since, when a position without loss weight lost its target (the output head skips it) and
// packed batches gained realTokens: with those two undone the SFT hash was the old one.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { tinyTokenizer } from "@/lib/engine/test-support/tiny-model";
import { conversationRows } from "@/lib/engine/train/packed-batch";
import { resolveRlConfig } from "./rl/experimental-config";
import { prepareRlJob } from "./rl/prepare-rl-job";
import { heldOutPrompt } from "./sft/sft-evaluation";
import { sftExampleSchema, tokenizeSftExample } from "./sft/tokenize-sft-example";
import { trainingVocabularyOf } from "./test-support/chat-format";
import { parseTrajectoryGroups } from "./trajectories/parse-trajectory-groups";

const tok = tinyTokenizer();
const vocabulary = trainingVocabularyOf(tok);
const { format } = vocabulary;

const tools = [{ type: "function", function: { name: "add", description: "Adds", parameters: { type: "object", properties: { a: { type: "number" } } } } }];
const call = { role: "assistant", content: "", tool_calls: [{ id: "c1", type: "function", function: { name: "add", arguments: '{"a": 2}' } }] };
const system = { role: "system", content: "Answer in digits." };
const user = (content: string) => ({ role: "user", content });

/** A Choice of `reply` whose logprobs entries name each token as `entry` says. */
const choice = (reply: string, entry: ((id: number, k: number) => object) | null, finish = "stop") => ({
  finish_reason: finish, index: 0, message: { role: "assistant", content: reply },
  logprobs: entry ? { content: tok.encode(reply).map((id, k) => ({ logprob: -0.05 * (k + 1), ...entry(id, k) })) } : null,
});
const byId = (id: number) => ({ token: `token_id:${id}` });
const byBytes = (id: number) => ({ token: "?", bytes: [...tok.decodeBytes([id])] });
const byText = (id: number) => ({ token: new TextDecoder().decode(tok.decodeBytes([id])) });

const groups = [
  {
    trajectories: [
      { messages_and_choices: [system, user("What is 2 + 2?"), choice("4", byId)], reward: 1 },
      { messages_and_choices: [system, user("What is 2 + 2?"), choice("The answer is 5", byBytes)], reward: 0 },
      { messages_and_choices: [system, user("What is 2 + 2?"), choice("four", null)], reward: 0.5 },
    ],
  },
  {
    trajectories: [
      {
        messages_and_choices: [user("Add 2."), call, { role: "tool", tool_call_id: "c1", content: "4" }, choice("It is 4.", byText), user("Again."), choice("4 again", byId)],
        tools,
        reward: 1,
        additional_histories: [{ messages_and_choices: [user("Check: 4?"), choice("yes", byId)] }],
      },
      { messages_and_choices: [user([{ type: "text", text: "Add" }, { type: "text", text: "2." }] as never), choice("Maybe 3, maybe", null, "length")], tools, reward: 0 },
    ],
  },
];

const examples = [
  { messages: [system, user("Echo 12"), { role: "assistant", content: "[12]" }] },
  { messages: [user("Add 2."), call, { role: "tool", tool_call_id: "c1", content: "4" }, { role: "assistant", content: "It is 4." }], tools },
  { messages: [user("Hi"), { role: "assistant", content: "Hello!" }, user("Bye"), choice("Goodbye.", byId)] },
].map((e) => sftExampleSchema.parse(e));

const sha256 = (value: unknown) => createHash("sha256").update(JSON.stringify(value, (_, v) => (ArrayBuffer.isView(v) ? Array.from(v as Float32Array) : v))).digest("hex");

describe("the batches Anneal's own models train on", () => {
  it("an RL job prepares as before", () => {
    const config = resolveRlConfig(null, { defaultRlLearningRate: 1e-4, defaultSftLearningRate: 1e-4 });
    const job = prepareRlJob({ groups: parseTrajectoryGroups(groups), vocabulary, config, limits: { rows: 3, tokens: Infinity }, contextLength: 1024 });
    expect(job.batches.length).toBeGreaterThan(1);
    expect(job.stats.numTrajectories).toBe(4);
    // rowLengths came later (a remote worker's rows are cut from the padded batch by them): derived
    // from the ids, so the hash leaves them out and stays the one taken before.
    const batches = job.batches.map(({ rowLengths: _lengths, ...batch }) => batch);
    expect(sha256({ ...job, batches })).toBe("2c937e115a90970f254275d4edbdc8c8df6f2f2c66ddccf4018d9db9dd70abb3");
  });

  it("SFT examples, their batch and their held-out prompts tokenize as before", () => {
    const rows = examples.flatMap((e, i) => [...tokenizeSftExample(format, e, "all", 1024, i), ...tokenizeSftExample(format, e, "last", 1024, i)]);
    const batch = conversationRows(rows, vocabulary.padId, "assistant");
    const prompts = examples.map((e) => heldOutPrompt(format, e));
    expect(rows).toHaveLength(6);
    expect(sha256({ rows, batch, prompts })).toBe("8ad571c4720b16aaf6fdc3e0a413b42e8341193bb55940e580e5c013184e7fd1");
  });
});
