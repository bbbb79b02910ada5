import { describe, expect, it } from "vitest";
import { chatSnippets } from "@/lib/client/chat-snippets";

const input = {
  origin: "http://localhost:3000",
  projectRef: "acme/default",
  body: {
    model: "anneal/tiny-chat",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "It's 2+2?" },
    ],
    temperature: 0.7,
    stop: ["\n\n"],
    top_k: 40,
    return_tokens_as_token_ids: false,
    stream: true,
    stream_options: { include_usage: true },
  },
};

describe("chatSnippets", () => {
  const { curl, python, typescript } = chatSnippets(input);

  it("curl sends the exact body, shell-quoted, with the key from the environment", () => {
    expect(curl).toContain("curl -N http://localhost:3000/v1/chat/completions");
    expect(curl).toContain('-H "Authorization: Bearer $ANNEAL_API_KEY"');
    expect(curl).toContain("-H 'Svc-Project: acme/default'");
    const quoted = curl.slice(curl.indexOf("-d '") + 4, -1).replaceAll(`'\\''`, "'");
    expect(JSON.parse(quoted)).toEqual(input.body);
  });

  it("Python uses Python literals and extra_body for non-OpenAI parameters", () => {
    expect(python).toContain('base_url="http://localhost:3000/v1"');
    expect(python).toContain('default_headers={"Svc-Project": "acme/default"}');
    expect(python).toContain("stream=True,");
    expect(python).toContain('stream_options={"include_usage": True},');
    expect(python).toContain('extra_body={"top_k": 40, "return_tokens_as_token_ids": False},');
    expect(python).toContain('stop=["\\n\\n"],');
    expect(python).not.toMatch(/\btrue\b|\bfalse\b|\bnull\b/);
  });

  it("TypeScript keeps extras in the object and asserts the streaming params type", () => {
    expect(typescript).toContain('baseURL: "http://localhost:3000/v1"');
    expect(typescript).toContain("top_k: 40,");
    expect(typescript).toContain("} as OpenAI.ChatCompletionCreateParamsStreaming);");
    expect(typescript).toContain("for await (const chunk of stream)");
  });

  it("without stream, prints the message", () => {
    const plain = chatSnippets({ ...input, body: { model: "m", messages: [{ role: "user", content: "hi" }] } });
    expect(plain.curl.startsWith("curl http")).toBe(true);
    expect(plain.typescript).toContain("console.log(completion.choices[0].message.content);");
    expect(plain.typescript).not.toContain(" as OpenAI.");
    expect(plain.python).toContain("print(completion.choices[0].message.content)");
  });
});
