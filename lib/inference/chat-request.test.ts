import { describe, expect, it } from "vitest";
import { chatCompletionRequestSchema } from "@/lib/inference/chat-request";
import { toValidationIssues } from "@/lib/http/validation";

const messages = [{ role: "user", content: "hi" }];

function issues(body: Record<string, unknown>) {
  const result = chatCompletionRequestSchema.safeParse(body);
  return result.success ? [] : toValidationIssues("body", result.error, body);
}

describe("chat completion request", () => {
  it("fills every default of spec §4.1", () => {
    const r = chatCompletionRequestSchema.parse({ messages });
    expect(r).toMatchObject({
      frequency_penalty: 0, presence_penalty: 0, top_logprobs: 0, n: 1, stop: [], stream: false, tool_choice: "none",
      include_reasoning: true, parallel_tool_calls: true, use_beam_search: false, length_penalty: 1, stop_token_ids: [],
      include_stop_str_in_output: false, ignore_eos: false, min_tokens: 0, skip_special_tokens: true,
      spaces_between_special_tokens: true, bad_words: [], echo: false, add_generation_prompt: true,
      continue_final_message: false, add_special_tokens: false, chat_template_kwargs: {}, priority: 0,
    });
    expect(r.model).toBeUndefined();
  });

  it("accepts the spec's limits for seed and truncate_prompt_tokens and rejects beyond them", () => {
    expect(issues({ messages, seed: -9223372036854776000, truncate_prompt_tokens: -1 })).toEqual([]);
    expect(issues({ messages, seed: 9223372036854776000, truncate_prompt_tokens: 9223372036854776000 })).toEqual([]);
    expect(issues({ messages, seed: 1.5e19 }).map((i) => i.loc)).toEqual([["body", "seed"]]);
    expect(issues({ messages, truncate_prompt_tokens: -2 })).toMatchObject([{ loc: ["body", "truncate_prompt_tokens"], type: "greater_than_equal" }]);
  });

  it("applies vLLM's cross-field rules with vLLM's messages", () => {
    expect(issues({ messages, stream_options: { include_usage: true } })).toEqual([
      { loc: ["body", "stream_options"], msg: "Stream options can only be defined when `stream=True`.", type: "value_error" },
    ]);
    expect(issues({ messages, top_logprobs: 3 })[0]).toMatchObject({ loc: ["body", "top_logprobs"], msg: "when using `top_logprobs`, `logprobs` must be set to true." });
    expect(issues({ messages, stream: true, prompt_logprobs: 1 })[0].loc).toEqual(["body", "prompt_logprobs"]);
    expect(issues({ messages, continue_final_message: true, add_generation_prompt: true })[0].msg).toBe(
      "Cannot set both `continue_final_message` and `add_generation_prompt` to True.",
    );
    expect(issues({ messages, structured_outputs: { json: "{}", regex: "a+" } })[0].msg).toMatch(/multiple are specified: json, regex/);
    expect(issues({ messages, structured_outputs: {} })[0].msg).toMatch(/none are specified/);
    expect(issues({ messages, response_format: { type: "json_object" }, structured_outputs: { regex: "a" } })[0].loc).toEqual(["body", "response_format"]);
    expect(issues({ messages, max_tokens: 3, min_tokens: 5 })[0]).toMatchObject({ loc: ["body", "min_tokens"], msg: "min_tokens must be less than or equal to max_tokens=3, got 5." });
    expect(issues({ messages, temperature: 0, n: 2 })[0]).toMatchObject({ loc: ["body", "n"] });
    expect(issues({ messages, tools: [] })[0].loc).toEqual(["body", "tools"]);
    expect(issues({ messages, repetition_detection: { max_pattern_size: 4, min_pattern_size: 1, min_count: 1 } })[0].loc).toEqual(["body", "repetition_detection", "min_count"]);
    expect(issues({ messages, repetition_detection: { max_pattern_size: 1, min_pattern_size: 2 } })[0].loc).toEqual(["body", "repetition_detection"]);
  });

  it("rejects values outside each field's range or enum", () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ tool_choice: "auto" }, ["body", "tool_choice"]],
      [{ reasoning_effort: "extreme" }, ["body", "reasoning_effort"]],
      [{ temperature: 2.5 }, ["body", "temperature"]],
      [{ top_p: 0 }, ["body", "top_p"]],
      [{ top_k: -2 }, ["body", "top_k"]],
      [{ min_p: 1.5 }, ["body", "min_p"]],
      [{ presence_penalty: 3 }, ["body", "presence_penalty"]],
      [{ repetition_penalty: 0 }, ["body", "repetition_penalty"]],
      [{ n: 0 }, ["body", "n"]],
      [{ max_tokens: 0 }, ["body", "max_tokens"]],
      [{ stop: ["ok", ""] }, ["body", "stop", "1"]],
      [{ logit_bias: { abc: 1 } }, ["body", "logit_bias", "abc"]],
      [{ allowed_token_ids: [] }, ["body", "allowed_token_ids"]],
      [{ cache_salt: "" }, ["body", "cache_salt"]],
      [{ response_format: { type: "json_schema" } }, ["body", "response_format", "json_schema"]],
      [{ messages: [] }, ["body", "messages"]],
      [{ messages: [{ content: "no role" }] }, ["body", "messages", "0", "role"]],
    ];
    for (const [patch, loc] of cases) expect(issues({ messages, ...patch }).map((i) => i.loc), JSON.stringify(patch)).toContainEqual(loc);
  });

  it("normalises what vLLM normalises: stop as a string, logit_bias clamped, prefill without a generation prompt", () => {
    const r = chatCompletionRequestSchema.parse({ messages, stop: "END", logit_bias: { "5": 250, "7": -300 }, continue_final_message: true });
    expect(r.stop).toEqual(["END"]);
    expect(r.logit_bias).toEqual({ "5": 100, "7": -100 });
    expect(r.add_generation_prompt).toBe(false);
  });

  it("keeps message fields of every kind and ignores unknown top-level fields", () => {
    const r = chatCompletionRequestSchema.parse({
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: [{ type: "text", text: "hi" }], name: "ann" },
        { role: "assistant", content: "", tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] },
        { role: "tool", content: "42", tool_call_id: "c1" },
      ],
      something_new: true,
    });
    expect(r.messages[3]).toEqual({ role: "tool", content: "42", tool_call_id: "c1" });
    expect(r).not.toHaveProperty("something_new");
  });
});

describe("request bounds", () => {
  const many = <T>(n: number, item: (i: number) => T) => Array.from({ length: n }, (_, i) => item(i));
  it.each([
    ["stop", { stop: many(17, (i) => `s${i}`) }, ["body", "stop"], "stop may hold at most 16 strings"],
    ["one stop string", { stop: ["x".repeat(257)] }, ["body", "stop", 0], "a stop string may be at most 256 characters"],
    ["logit_bias", { logit_bias: Object.fromEntries(many(301, (i) => [String(i), 1])) }, ["body", "logit_bias"], "logit_bias may hold at most 300 tokens"],
    ["bad_words", { bad_words: many(129, (i) => `w${i}`) }, ["body", "bad_words"], "bad_words may hold at most 128 words"],
    ["one bad word", { bad_words: ["x".repeat(257)] }, ["body", "bad_words", 0], "a bad word may be at most 256 characters"],
    ["tools", { tools: many(129, (i) => ({ type: "function", function: { name: `f${i}` } })) }, ["body", "tools"], "tools may hold at most 128 tools"],
    ["n", { n: 129 }, ["body", "n"], "Too big: expected number to be <=128"],
    ["chat_template", { chat_template: "x".repeat(64 * 1024 + 1) }, ["body", "chat_template"], "a chat template may be at most 65536 characters"],
    ["chat_template_kwargs.chat_template", { chat_template_kwargs: { chat_template: "x".repeat(64 * 1024 + 1) } }, ["body", "chat_template_kwargs", "chat_template"], "a chat template may be at most 65536 characters"],
  ])("%s over its bound is 422 at its place", (_, body, loc, msg) => {
    const found = issues({ messages, ...body }).map((issue) => ({ loc: issue.loc.map(String), msg: issue.msg }));
    expect(found).toEqual([{ loc: loc.map(String), msg }]);
  });

  it("accepts each at its bound", () => {
    expect(issues({ messages, stop: many(16, (i) => `${i}`.padEnd(256, "x")), logit_bias: Object.fromEntries(many(300, (i) => [String(i), 1])), bad_words: many(128, () => "w".repeat(256)), tools: many(128, (i) => ({ type: "function", function: { name: `f${i}` } })), n: 128, chat_template: "x".repeat(64 * 1024) })).toEqual([]);
  });
});
