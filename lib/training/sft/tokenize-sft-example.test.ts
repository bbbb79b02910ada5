import { describe, expect, it } from "vitest";
import { IM_END } from "@/lib/engine/tokenizer/chatml";
import { ValidationError } from "@/lib/contract/errors";
import { byteTokenizer } from "../test-support/byte-tokenizer";
import { chatFormatOf } from "../test-support/chat-format";
import { planSft, sftConfigSchema } from "./sft-config";
import { sftExampleSchema, tokenizeSftExample } from "./tokenize-sft-example";

const tok = byteTokenizer();
const defaults = { defaultRlLearningRate: 1e-4, defaultSftLearningRate: 2e-4 };
const example = sftExampleSchema.parse({
  messages: [{ role: "user", content: "a" }, { role: "assistant", content: "b" }, { role: "user", content: "c" }, { role: "assistant", content: "d" }],
});
const format = chatFormatOf(tok);
const trained = (turns: "all" | "last") => {
  const [{ ids, assistantMask }, ...more] = tokenizeSftExample(format, example, turns, 64, 0);
  expect(more).toEqual([]);
  return tok.decode(ids.filter((_, i) => assistantMask[i]));
};

describe("SFT examples", () => {
  it("trains every assistant turn with its <|im_end|>, or only the last", () => {
    expect(trained("all")).toBe(`b${IM_END}d${IM_END}`);
    expect(trained("last")).toBe(`d${IM_END}`);
  });

  it("renders tools, tool calls and tool results with the model's template, and ends after the last trained turn", () => {
    const withTools = sftExampleSchema.parse({
      messages: [
        { role: "user", content: [{ type: "text", text: "add" }, { type: "text", text: "1" }] },
        { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "add", arguments: '{"a":1}' } }] },
        { role: "tool", tool_call_id: "c", content: "2" },
        { finish_reason: "stop", message: { role: "assistant", content: "2" } },
      ],
      tools: [{ name: "add" }],
    });
    const [{ ids, assistantMask }] = tokenizeSftExample(format, withTools, "all", 256, 0);
    expect(tok.decode(ids)).toBe(
      '<|im_start|>system\n<tools>\n{"type": "function", "function": {"name": "add"}}\n</tools><|im_end|>\n<|im_start|>user\nadd\n1<|im_end|>\n' +
        '<|im_start|>assistant\n<tool_call>\n{"name": "add", "arguments": {"a": 1}}\n</tool_call><|im_end|>\n' +
        "<|im_start|>user\n<tool_response>\n2\n</tool_response><|im_end|>\n<|im_start|>assistant\n2<|im_end|>",
    );
    expect(tok.decode(ids.filter((_, i) => assistantMask[i]))).toBe('<tool_call>\n{"name": "add", "arguments": {"a": 1}}\n</tool_call><|im_end|>2<|im_end|>');
  });

  it("names the example, message and part it cannot render, and refuses one longer than the context", () => {
    const image = sftExampleSchema.parse({ messages: [{ role: "user", content: [{ type: "image_url" }] }, { role: "assistant", content: "b" }] });
    expect(() => tokenizeSftExample(format, image, "all", 64, 7)).toThrow(ValidationError);
    expect(() => tokenizeSftExample(format, image, "all", 64, 7)).toThrow("training_data.7.messages.0.content.0: a content part of type 'image_url': this model takes text only");
    expect(() => tokenizeSftExample(format, example, "all", 8, 0)).toThrow(/more than the model's context of 8/);
  });

  it("needs messages ending with the assistant", () => {
    expect(sftExampleSchema.safeParse({ messages: [] }).success).toBe(false);
    expect(sftExampleSchema.safeParse({ messages: [{ role: "user", content: "a" }] }).success).toBe(false);
  });
});

describe("planSft", () => {
  it("defaults batch 2, the model's SFT rate, all turns", () => {
    expect(planSft(sftConfigSchema.parse({ batch_size: null, learning_rate: null }), defaults, 5)).toMatchObject({ batchSize: 2, epochs: 1, learningRates: [2e-4, 2e-4, 2e-4], assistantTurns: "all", validationFraction: 0, checker: null });
    expect(planSft(null, defaults, 5)).toEqual(planSft({ batch_size: "auto" }, defaults, 5));
  });

  it("takes one learning rate per batch and refuses a list of the wrong length", () => {
    expect(planSft({ batch_size: 3, learning_rate: [1e-3, 5e-4] }, defaults, 5).learningRates).toEqual([1e-3, 5e-4]);
    expect(() => planSft({ batch_size: 3, learning_rate: [1e-3] }, defaults, 5)).toThrow(ValidationError);
  });

  it("takes every epoch's steps over the examples validation_fraction leaves to train on", () => {
    const plan = planSft({ batch_size: 4, epochs: 3, validation_fraction: 0.2 }, defaults, 10);
    expect(plan).toMatchObject({ numTrain: 8, stepsPerEpoch: 2, epochs: 3, validationFraction: 0.2, patience: 1 });
    expect(plan.learningRates).toHaveLength(6);
    expect(planSft({ batch_size: 4, epochs: 2, learning_rate: [1, 2, 3, 4, 5, 6] }, defaults, 10).learningRates).toHaveLength(6);
    expect(() => planSft({ batch_size: 4, epochs: 2, learning_rate: [1, 2, 3] }, defaults, 10)).toThrow(/make 6, got 3/);
  });
});
