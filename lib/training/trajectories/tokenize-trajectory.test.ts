import { describe, expect, it } from "vitest";
import { tinyTokenizer } from "@/lib/engine/test-support/tiny-model";
import { BYTE_TO_CHAR } from "@/lib/engine/tokenizer/byte-alphabet";
import { encodePrompt, renderChat } from "@/lib/engine/tokenizer/chat-template";
import { IM_END } from "@/lib/engine/tokenizer/chatml";
import { chatFormatOf } from "../test-support/chat-format";
import { TrajectoryError } from "../trajectory-error";
import { parseTrajectoryGroups } from "./parse-trajectory-groups";
import { tokenizeHistory } from "./tokenize-trajectory";

const tok = tinyTokenizer();
const format = chatFormatOf(tok);
const imEnd = tok.tokenId(IM_END)!;
const user = { role: "user", content: "What is 2 + 2?" };
const reply = "The answer is 4";
const replyIds = tok.encode(reply);
const text = (id: number) => new TextDecoder().decode(tok.decodeBytes([id]));
/** The reply as a Choice whose logprobs entries name each token as `entry` says, then `extra`. */
const choiceWith = (entry: (id: number, k: number) => object, extra: object[] = [], ids = replyIds) => ({
  finish_reason: "stop", index: 0, message: { role: "assistant", content: reply },
  logprobs: { content: [...ids.map((id, k) => ({ logprob: -0.1 * (k + 1), top_logprobs: [], ...entry(id, k) })), ...extra] },
});
const byId = (id: number) => ({ token: `token_id:${id}` });
const history = (...messages_and_choices: object[]) => parseTrajectoryGroups([{ trajectories: [{ messages_and_choices, reward: 1 }] }])[0].trajectories[0];
const at = { group: 0, trajectory: 0 };
const tokenize = (h: ReturnType<typeof history>, maxTokens = 256) => tokenizeHistory(format, tok, h, at, maxTokens);
/** The prompt serving renders for `messages`: what a completion after them was sampled from. */
const served = (...messages: object[]) => encodePrompt(format, renderChat(format, { messages: messages as never }, { addGenerationPrompt: true }));
const trained = (ids: number[], trainable: Uint8Array) => ids.filter((_, i) => trainable[i]);

describe("tokenizeHistory", () => {
  it("puts the sampled tokens, trainable, after the prompt serving renders for the messages before them", () => {
    const [h, ...more] = tokenize(history(user, choiceWith(byId)));
    expect(more).toEqual([]);
    const prompt = served(user);
    expect(h.ids).toEqual([...prompt, ...replyIds]);
    expect([...h.trainable]).toEqual([...prompt.map(() => 0), ...replyIds.map(() => 1)]);
    expect([...h.oldLogprobs.slice(prompt.length)]).toEqual(replyIds.map((_, k) => Math.fround(-0.1 * (k + 1))));
    expect(h.oldLogprobs.slice(0, prompt.length).every(Number.isNaN)).toBe(true);
  });

  it("finds the same ids from token_id, from bytes and from token text", () => {
    const [fromId] = tokenize(history(user, choiceWith(byId)));
    const [byBytes] = tokenize(history(user, choiceWith((id) => ({ token: "?", bytes: [...tok.decodeBytes([id])] }))));
    const [byText] = tokenize(history(user, choiceWith((id) => ({ token: text(id) }))));
    const [byVocabString] = tokenize(history(user, choiceWith((id) => ({ token: tok.spec.tokens[id] }))));
    expect(replyIds.some((id) => tok.spec.tokens[id] !== text(id))).toBe(true); // the text and vocabulary forms differ
    for (const h of [byBytes, byText, byVocabString]) expect(h.ids).toEqual(fromId.ids);
  });

  it("tokenizes a Choice without logprobs as the template writes it, through its end of turn unless cut by length", () => {
    const choice = { ...choiceWith(() => ({})), logprobs: null };
    const [h] = tokenize(history(user, choice));
    expect(trained(h.ids, h.trainable)).toEqual([...replyIds, imEnd]);
    expect(h.oldLogprobs.every(Number.isNaN)).toBe(true);
    const [cut] = tokenize(history(user, { ...choice, finish_reason: "length" }));
    expect(trained(cut.ids, cut.trainable)).toEqual(replyIds);
  });

  it("keeps turns in one row while each turn's served prompt extends the row, training only Choice tokens", () => {
    const sampledEnd = choiceWith(byId, [{ token: `token_id:${imEnd}`, logprob: -0.01 }]);
    const later = { role: "user", content: "thanks" };
    const [h, ...more] = tokenize(history(user, sampledEnd, later, choiceWith(byId)));
    expect(more).toEqual([]);
    const second = served(user, { role: "assistant", content: reply }, later);
    expect(h.ids).toEqual([...second, ...replyIds]);
    expect(trained(h.ids, h.trainable)).toEqual([...replyIds, imEnd, ...replyIds]);
  });

  it("starts a row of its own for a turn whose served prompt re-tokenized an earlier sample differently", () => {
    const bytes = [...new TextEncoder().encode(reply)].map((b) => tok.tokenId(BYTE_TO_CHAR[b])!);
    expect(bytes).not.toEqual(replyIds); // the reply's text tokenizes to merged tokens, not the sampled bytes
    const later = { role: "user", content: "thanks" };
    const rows = tokenize(history(user, choiceWith(byId, [], bytes), later, choiceWith(byId)));
    expect(rows.map((r) => r.ids)).toEqual([
      [...served(user), ...bytes],
      [...served(user, { role: "assistant", content: reply }, later), ...replyIds],
    ]);
    expect(rows.map((r) => trained(r.ids, r.trainable))).toEqual([bytes, replyIds]);
  });

  it("renders tools, tool calls and tool results through the model's template", () => {
    const tools = [{ type: "function", function: { name: "add", parameters: { type: "object" } } }];
    const call = { role: "assistant", content: "", tool_calls: [{ id: "c", type: "function", function: { name: "add", arguments: "{}" } }] };
    const messages = [{ role: "system", content: "Be brief." }, user, call, { role: "tool", tool_call_id: "c", content: "4" }];
    const parsed = parseTrajectoryGroups([{ trajectories: [{ messages_and_choices: [...messages, choiceWith(byId)], tools, reward: 0 }] }])[0].trajectories[0];
    const [h] = tokenize(parsed, 1024);
    const prompt = encodePrompt(format, renderChat(format, { messages: messages as never, tools }, { addGenerationPrompt: true }));
    expect(h.ids).toEqual([...prompt, ...replyIds]);
    expect(tok.decode(prompt)).toMatch(/^<\|im_start\|>system\nBe brief\.\n\n<tools>\n[\s\S]*<tool_call>[\s\S]*<\|im_start\|>user\n<tool_response>\n4\n<\/tool_response><\|im_end\|>\n<\|im_start\|>assistant\n$/);
  });

  it("names group, trajectory and position for a token outside the vocabulary or a part it cannot render", () => {
    const bad = choiceWith((id, k) => (k === 2 ? { token: "token_id:99999" } : byId(id)));
    const where = { group: 3, trajectory: 1, history: 2 };
    const call = () => tokenizeHistory(format, tok, history(user, bad), where, 256);
    expect(call).toThrow(TrajectoryError);
    expect(call).toThrow('trajectory_groups[3].trajectories[1].additional_histories[1].messages_and_choices[1].logprobs.content[2]: token "token_id:99999" is not in the model\'s vocabulary');
    const unknownText = choiceWith((id, k) => (k === 0 ? { token: BYTE_TO_CHAR[0x80].repeat(9) + "\u{1F600}" } : byId(id)));
    expect(() => tokenize(history(user, unknownText))).toThrow(/content\[0\]/);
    const image = { role: "user", content: [{ type: "image_url" }] };
    expect(() => tokenize(history(image, choiceWith(byId)))).toThrow(
      "trajectory_groups[0].trajectories[0].messages_and_choices[0].content[0]: a content part of type 'image_url': this model takes text only",
    );
  });

  it("refuses a conversation longer than the model's context", () => {
    expect(() => tokenize(history(user, choiceWith(byId)), 8)).toThrow(/more than the model's context of 8/);
  });
});

describe("parseTrajectoryGroups", () => {
  it("defaults nulls, ignores unknown fields and wraps bare tool definitions", () => {
    const [g] = parseTrajectoryGroups([{ trajectories: [{ messages_and_choices: [user], reward: 0.5, additional_histories: null, tools: [{ name: "f" }], metrics: {}, logs: [] }], exceptions: [] }]);
    expect(g.trajectories[0]).toMatchObject({ reward: 0.5, additional_histories: [], tools: [{ type: "function", function: { name: "f" } }] });
  });

  it("reports a non-finite reward by group and trajectory", () => {
    const call = () => parseTrajectoryGroups([{ trajectories: [] }, { trajectories: [{ messages_and_choices: [], reward: 1 }, { messages_and_choices: [], reward: NaN }] }]);
    expect(call).toThrow(TrajectoryError);
    expect(call).toThrow("trajectory_groups[1].trajectories[1].reward: reward must be a finite number");
  });
});
