import { describe, expect, it } from "vitest";
import { tinyTokenizer } from "../test-support/tiny-model";
import { ChatTemplateError, encodePrompt, renderChat, type ChatFormat } from "./chat-template";
import { END_OF_TEXT, IM_END, renderChat as renderPlainChatml } from "./chatml";
import { CHATML_TEMPLATE } from "./chatml-template";

const tok = tinyTokenizer();
const format: ChatFormat = {
  template: CHATML_TEMPLATE,
  bos: { text: END_OF_TEXT, id: tok.tokenId(END_OF_TEXT)! },
  eos: { text: IM_END, id: tok.tokenId(IM_END)! },
  tokenize: (text) => tok.encode(text, { parseSpecials: true }),
};
const tools = [{ type: "function", function: { name: "add", parameters: { type: "object" } } }];
const call = (args: string | null) => ({ id: "c1", type: "function", function: { name: "add", arguments: args } });
const render = (messages: object[], options: { tools?: object[]; addGenerationPrompt?: boolean } = {}) =>
  renderChat(format, { messages: messages as never, tools: options.tools }, { addGenerationPrompt: options.addGenerationPrompt ?? false });

describe("Anneal's chat template", () => {
  it("renders a conversation without tools exactly as the ChatML tiny-chat was pretrained on", () => {
    const messages = [{ role: "system", content: "Be brief." }, { role: "user", content: "2+2?" }, { role: "assistant", content: "4", tool_calls: [] }, { role: "user", content: "And 3+3?" }];
    for (const addGenerationPrompt of [false, true]) {
      expect(render(messages, { addGenerationPrompt })).toBe(renderPlainChatml(messages, { addGenerationPrompt }));
    }
  });

  it("puts tools at the end of the system (or developer) message, or in a system message of their own", () => {
    const block = '<tools>\n{"type": "function", "function": {"name": "add", "parameters": {"type": "object"}}}\n</tools>';
    expect(render([{ role: "developer", content: "Use tools." }, { role: "user", content: "hi" }], { tools })).toBe(
      `<|im_start|>system\nUse tools.\n\n${block}<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n`,
    );
    expect(render([{ role: "user", content: "hi" }], { tools })).toBe(`<|im_start|>system\n${block}<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n`);
    expect(render([{ role: "developer", content: "Be brief." }])).toBe("<|im_start|>system\nBe brief.<|im_end|>\n");
  });

  it("writes tool calls after the assistant's text and groups consecutive tool results into one user turn", () => {
    const rendered = render([
      { role: "assistant", content: "Adding.", tool_calls: [call('{"a": 1}'), call("not json")] },
      { role: "tool", tool_call_id: "c1", content: "1" },
      { role: "function", content: "2" },
      { role: "user", content: "ok" },
    ]);
    expect(rendered).toBe(
      '<|im_start|>assistant\nAdding.\n<tool_call>\n{"name": "add", "arguments": {"a": 1}}\n</tool_call>\n<tool_call>\n{"name": "add", "arguments": "not json"}\n</tool_call><|im_end|>\n' +
        "<|im_start|>user\n<tool_response>\n1\n</tool_response>\n<tool_response>\n2\n</tool_response><|im_end|>\n<|im_start|>user\nok<|im_end|>\n",
    );
    expect(render([{ role: "assistant", content: null, tool_calls: [call(null)] }])).toBe('<|im_start|>assistant\n<tool_call>\n{"name": "add", "arguments": {}}\n</tool_call><|im_end|>\n');
  });
});

describe("the shared renderer", () => {
  it("joins text parts with newlines and refuses other parts, naming message and part", () => {
    expect(render([{ role: "user", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] }])).toBe("<|im_start|>user\na\nb<|im_end|>\n");
    const image = () => render([{ role: "user", content: "x" }, { role: "user", content: [{ type: "text", text: "a" }, { type: "image_url" }] }]);
    expect(image).toThrow(new ChatTemplateError("a content part of type 'image_url': this model takes text only", { message: 1, part: 1 }))
    expect(image).toThrow("messages[1].content[1]: a content part of type 'image_url': this model takes text only");
  });

  it("hands null fields to the template as absent", () => {
    const probe = { ...format, template: "{{ messages[0].name is defined }}|{{ messages[0].tool_calls[0].id is defined }}" };
    const messages = [{ role: "assistant", name: null, tool_calls: [{ id: null, function: { name: "f" } }] }];
    expect(renderChat(probe, { messages: messages as never }, { addGenerationPrompt: false })).toBe("false|false");
  });

  it("passes chat_template_kwargs to the template, a chat_template among them replacing the model's", () => {
    const probe = { ...format, template: "{{ enable_thinking is defined }}|{{ enable_thinking }}|{{ add_generation_prompt }}" };
    const render = (kwargs?: Record<string, unknown>) => renderChat(probe, { messages: [], chat_template_kwargs: kwargs }, { addGenerationPrompt: true });
    expect(render()).toBe("false||true");
    // The renderer's own variables win over a kwarg of the same name.
    expect(render({ enable_thinking: false, add_generation_prompt: false })).toBe("true|false|true");
    expect(render({ chat_template: "own {{ enable_thinking }}", enable_thinking: true })).toBe("own true");
  });

  it("reports templates that do not parse or fail as ChatTemplateErrors", () => {
    const withTemplate = (template: string) => renderChat(format, { messages: [], chat_template_kwargs: { chat_template: template } }, { addGenerationPrompt: false });
    expect(() => withTemplate("{% if %}")).toThrow(/^The chat template does not parse/);
    expect(() => withTemplate("{{ raise_exception('no') }}")).toThrow(
      new ChatTemplateError("The chat template failed to render these messages: no"),
    );
  });

  it("parses special-token texts into their ids and adds BOS only when asked", () => {
    const text = "<|im_start|>user\nhi<|im_end|>\n";
    expect(encodePrompt(format, text)).toEqual(tok.encode(text, { parseSpecials: true }));
    expect(encodePrompt(format, text, true)).toEqual([format.bos!.id, ...tok.encode(text, { parseSpecials: true })]);
  });
});
