import { describe, expect, it } from "vitest";
import { tinyTokenizer } from "@/lib/engine/test-support/tiny-model";
import { BYTE_TO_CHAR } from "@/lib/engine/tokenizer/byte-alphabet";
import { encodeChat, IM_END } from "@/lib/engine/tokenizer/chatml";
import { TrajectoryError } from "../trajectory-error";
import { parseTrajectoryGroups } from "./parse-trajectory-groups";
import { tokenizeHistory } from "./tokenize-trajectory";

const tok = tinyTokenizer();
const user = { role: "user", content: "What is 2 + 2?" };
const reply = "The answer is 4";
const replyIds = tok.encode(reply);
const text = (id: number) => new TextDecoder().decode(tok.decodeBytes([id]));
/** The reply as a Choice whose logprobs entries name each token as `entry` says, then `extra`. */
const choiceWith = (entry: (id: number, k: number) => object, extra: object[] = []) => ({
  finish_reason: "stop", index: 0, message: { role: "assistant", content: reply },
  logprobs: { content: [...replyIds.map((id, k) => ({ logprob: -0.1 * (k + 1), top_logprobs: [], ...entry(id, k) })), ...extra] },
});
const history = (...messages_and_choices: object[]) => parseTrajectoryGroups([{ trajectories: [{ messages_and_choices, reward: 1 }] }])[0].trajectories[0];
const at = { group: 0, trajectory: 0 };

describe("tokenizeHistory", () => {
  it("renders context with ChatML, then the generation prompt and the sampled tokens as trainable", () => {
    const h = tokenizeHistory(tok, history(user, choiceWith((id) => ({ token: `token_id:${id}` }))), at, 256);
    const prompt = encodeChat(tok, [user], { addGenerationPrompt: true }).ids;
    expect(h.ids).toEqual([...prompt, ...replyIds]);
    expect([...h.trainable]).toEqual([...prompt.map(() => 0), ...replyIds.map(() => 1)]);
    expect([...h.oldLogprobs.slice(prompt.length)]).toEqual(replyIds.map((_, k) => Math.fround(-0.1 * (k + 1))));
    expect(h.oldLogprobs.slice(0, prompt.length).every(Number.isNaN)).toBe(true);
  });

  it("finds the same ids from token_id, from bytes and from token text", () => {
    const byId = tokenizeHistory(tok, history(user, choiceWith((id) => ({ token: `token_id:${id}` }))), at, 256);
    const byBytes = tokenizeHistory(tok, history(user, choiceWith((id) => ({ token: "?", bytes: [...tok.decodeBytes([id])] }))), at, 256);
    const byText = tokenizeHistory(tok, history(user, choiceWith((id) => ({ token: text(id) }))), at, 256);
    const byVocabString = tokenizeHistory(tok, history(user, choiceWith((id) => ({ token: tok.spec.tokens[id] }))), at, 256);
    expect(replyIds.some((id) => tok.spec.tokens[id] !== text(id))).toBe(true); // the text and vocabulary forms differ
    for (const h of [byBytes, byText, byVocabString]) expect(h.ids).toEqual(byId.ids);
  });

  it("tokenizes a Choice without logprobs from its content, on-policy (no π_old)", () => {
    const choice = { ...choiceWith(() => ({})), logprobs: null };
    const h = tokenizeHistory(tok, history(user, choice), at, 256);
    expect(h.ids.filter((_, i) => h.trainable[i])).toEqual(replyIds);
    expect(h.oldLogprobs.every(Number.isNaN)).toBe(true);
  });

  it("closes a mid-conversation Choice with the template's <|im_end|> (once) and trains only Choice tokens", () => {
    const imEnd = tok.tokenId(IM_END)!;
    const sampledEnd = choiceWith((id) => ({ token: `token_id:${id}` }), [{ token: IM_END, logprob: -0.01, top_logprobs: [] }]);
    const later = { role: "user", content: "thanks" };
    const h = tokenizeHistory(tok, history(user, sampledEnd, later, choiceWith((id) => ({ token: `token_id:${id}` }))), at, 256);
    const first = [...encodeChat(tok, [user], { addGenerationPrompt: true }).ids, ...replyIds, imEnd, ...tok.encode("\n")];
    expect(h.ids.slice(0, first.length)).toEqual(first);
    expect(h.ids.filter((_, i) => h.trainable[i])).toEqual([...replyIds, imEnd, ...replyIds]);
  });

  it("puts tools into the system message", () => {
    const tools = [{ type: "function", function: { name: "add", parameters: { type: "object" } } }];
    const parsed = parseTrajectoryGroups([{ trajectories: [{ messages_and_choices: [{ role: "system", content: "Be brief." }, user, choiceWith((id) => ({ token: `token_id:${id}` }))], tools, reward: 0 }] }])[0].trajectories[0];
    const rendered = tok.decode(tokenizeHistory(tok, parsed, at, 1024).ids);
    expect(rendered).toMatch(/^<\|im_start\|>system\nBe brief\.\n\n# Tools\n[\s\S]*"name":"add"[\s\S]*<\|im_end\|>\n<\|im_start\|>user\n/);
  });

  it("names group, trajectory and position for a token outside the vocabulary", () => {
    const bad = choiceWith((id, k) => ({ token: k === 2 ? "token_id:99999" : `token_id:${id}` }));
    const where = { group: 3, trajectory: 1, history: 2 };
    const call = () => tokenizeHistory(tok, history(user, bad), where, 256);
    expect(call).toThrow(TrajectoryError);
    expect(call).toThrow('trajectory_groups[3].trajectories[1].additional_histories[1].messages_and_choices[1].logprobs.content[2]: token "token_id:99999" is not in the model\'s vocabulary');
    const unknownText = choiceWith((id, k) => ({ token: k === 0 ? BYTE_TO_CHAR[0x80].repeat(9) + "\u{1F600}" : `token_id:${id}` }));
    expect(() => tokenizeHistory(tok, history(user, unknownText), at, 256)).toThrow(/content\[0\]/);
  });

  it("refuses a conversation longer than the model's context", () => {
    expect(() => tokenizeHistory(tok, history(user, choiceWith((id) => ({ token: `token_id:${id}` }))), at, 8)).toThrow(/more than the model's context of 8/);
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
