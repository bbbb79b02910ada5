import { LlamaLogLevel } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLlamaGguf } from "../gguf/llama-gguf";
import { TINY_CHAT_GGUF } from "../pretrain/tiny-chat-files";
import { generateText } from "./generate";
import { logLlamaCpp } from "./llama-log";
import { ModelRegistry } from "./model-registry";

// tiny-chat was trained on 128 positions (llama.context_length): it is served with exactly that
// context, generation never goes past it, and creating its contexts logs no llama.cpp warning
// about exceeding it (node-llama-cpp pads every context to 256 cells, which no sequence uses).

const trained = readLlamaGguf(TINY_CHAT_GGUF).config.contextLength;
let registry: ModelRegistry;
// What the process logs while the contexts are created: llama.cpp's messages reach stderr through
// Anneal's logger, or (without one) node-llama-cpp's console logger.
const logged: string[] = [];
const originals = { write: process.stderr.write, warn: console.warn, error: console.error, log: console.log, info: console.info };

beforeAll(() => {
  registry = new ModelRegistry({ sequences: 2 });
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    logged.push(String(chunk));
    return originals.write.call(process.stderr, chunk, ...rest);
  }) as typeof process.stderr.write;
  for (const method of ["warn", "error", "log", "info"] as const) {
    console[method] = (...args: unknown[]) => {
      logged.push(args.join(" "));
      originals[method].apply(console, args);
    };
  }
});
afterAll(async () => {
  Object.assign(console, { warn: originals.warn, error: originals.error, log: originals.log, info: originals.info });
  process.stderr.write = originals.write;
  await registry.dispose();
});

describe("serving at most the trained context", () => {
  it("serves tiny-chat with its 128 trained positions and generates no further", async () => {
    expect(trained).toBe(128);
    const model = await registry.model(TINY_CHAT_GGUF);
    expect(registry.contextSize(model)).toBe(trained);
    const prompt = Array.from({ length: 100 }, (_, i) => 40 + (i % 50));
    const [a, b] = await Promise.all([1, 2].map((seed) => generateText(registry, { model: TINY_CHAT_GGUF, promptTokens: prompt, maxTokens: 1000, ignoreEos: true, sampling: { seed } })));
    for (const r of [a, b]) expect(r).toMatchObject({ finishReason: "length", tokens: expect.any(Array) });
    expect(a.tokens).toHaveLength(trained - prompt.length);
    expect(b.tokens).toHaveLength(trained - prompt.length);
  });

  it("creates its contexts without llama.cpp's training-context warning", async () => {
    await new Promise((resolve) => setTimeout(resolve, 100)); // llama.cpp's log reaches JS a turn later
    expect(logged.filter((line) => line.includes("n_ctx_train"))).toEqual([]);
  });

  it("still logs a context beyond the padding, as a JSON line", () => {
    const overflow = "llama_context: n_ctx_seq (512) > n_ctx_train (128) -- possible training context overflow";
    logLlamaCpp(LlamaLogLevel.warn, overflow);
    expect(logged.map((line) => line.trim()).filter((line) => line.includes("n_ctx_train")).map((line) => JSON.parse(line))).toMatchObject([{ level: "warn", msg: overflow, source: "llama.cpp" }]);
  });
});
