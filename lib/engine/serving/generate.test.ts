import fs from "node:fs";
import path from "node:path";
import type { Llama } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { referenceForward } from "../model/reference";
import type { LlamaWeights } from "../model/config";
import { randomLora, writeTinyModel, type TinyModelFiles } from "../test-support/tiny-model";
import { encodeChat } from "../tokenizer/chatml";
import { generate, generateText, type GenerateRequest, type GenerationResult } from "./generate";
import { getLlamaRuntime } from "./llama-runtime";
import { ModelRegistry } from "./model-registry";
import { nextTokenLogits, viaControlledEvaluate } from "./next-token-logits";
import { nulTokenIds } from "./nul-tokens";

let files: TinyModelFiles;
let registry: ModelRegistry;

beforeAll(() => {
  files = writeTinyModel();
  registry = new ModelRegistry({ maxModels: 2, sequences: 16 });
});
afterAll(async () => {
  await registry.dispose();
  files.remove();
});

const prompt = () => encodeChat(files.tokenizer, [{ role: "user", content: "What is 12 + 30?" }], { addGenerationPrompt: true }).ids;
const request = (over: Partial<GenerateRequest> = {}): GenerateRequest => ({
  model: files.model,
  promptTokens: prompt(),
  maxTokens: 24,
  sampling: { temperature: 1, seed: 1 },
  ...over,
});

/** The same tokens, text and end, with log-probs equal up to float32 rounding: a prompt evaluated
 *  in one batch and one whose cached prefix is reused (its last token evaluated alone) take different
 *  matmul paths in ggml, which differ in the last bits. */
function sameGeneration(a: GenerationResult, b: GenerationResult): boolean {
  const { logprobs: la, ...restA } = a;
  const { logprobs: lb, ...restB } = b;
  return JSON.stringify(restA) === JSON.stringify(restB) && la.length === lb.length && la.every((lp, i) => Math.abs(lp - lb[i]) < 1e-5);
}

/** max |llama.cpp − float64 reference| over every position of `tokens`. */
async function maxLogitError(weights: LlamaWeights, adapter?: GenerateRequest["adapter"], served = registry): Promise<number> {
  const tokens = prompt();
  const V = files.config.vocabSize;
  const ref = referenceForward(files.config, weights, tokens);
  const lease = await served.lease(files.model, adapter);
  try {
    await lease.sequence.clearHistory();
    let err = 0;
    for (let t = 0; t < tokens.length; t++) {
      const logits = await nextTokenLogits(lease.sequence, [tokens[t]]);
      for (let v = 0; v < V; v++) err = Math.max(err, Math.abs(logits[v] - ref[t * V + v]));
    }
    return err;
  } finally {
    lease.release();
  }
}

describe("serving through llama.cpp", () => {
  it("returns the logits of a float64 forward pass (F32 KV cache, no flash attention)", async () => {
    expect(await maxLogitError(files.weights)).toBeLessThan(1e-4);
  });

  it("reads exactly the logits node-llama-cpp's controlledEvaluate returns, prompt and generated steps", async () => {
    const lease = await registry.lease(files.model);
    try {
      const steps: Float32Array[][] = [];
      for (const read of [nextTokenLogits, viaControlledEvaluate]) {
        await lease.sequence.clearHistory();
        const got = [await read(lease.sequence, prompt())];
        for (const token of [5, 9, 5]) got.push(await read(lease.sequence, [token]));
        steps.push(got);
      }
      expect(steps[0][0]).toHaveLength(files.config.vocabSize);
      expect(steps[0]).toEqual(steps[1]);
    } finally {
      await lease.sequence.clearHistory(); // later tests expect no cached prompt
      lease.release();
    }
  });

  /** The tiny model's weights with its adapter merged at `scale`. */
  const mergedWeights = (scale: number): LlamaWeights => {
    const adapters = randomLora(files.config, 2); // what writeTinyModel wrote (seed + 1), alpha 8
    const merged: LlamaWeights = { ...files.weights };
    for (const [name, { a, b, rank }] of Object.entries(adapters)) {
      const W = Float32Array.from(merged[name]);
      const inDim = a.length / rank;
      const s = (scale * 8) / rank;
      for (let o = 0; o < W.length / inDim; o++)
        for (let i = 0; i < inDim; i++) {
          let ba = 0;
          for (let r = 0; r < rank; r++) ba += b[o * rank + r] * a[r * inDim + i];
          W[o * inDim + i] += s * ba;
        }
      merged[name] = W;
    }
    return merged;
  };

  it("applies a LoRA adapter as W + scale·(alpha/rank)·B·A", async () => {
    expect(await maxLogitError(mergedWeights(0.5), { path: files.lora, scale: 0.5 })).toBeLessThan(1e-4);
    expect(await maxLogitError(files.weights)).toBeLessThan(1e-4); // the bare model again
  });

  it("switches one context between adapters and back to the bare model, its cached tokens cleared each time", async () => {
    const single = new ModelRegistry({ sequences: 1 });
    try {
      for (const [weights, adapter] of [
        [mergedWeights(1), { path: files.lora }],
        [files.weights, undefined],
        [mergedWeights(0.5), { path: files.lora, scale: 0.5 }],
        [mergedWeights(1), { path: files.lora }],
      ] as const) expect(await maxLogitError(weights, adapter, single)).toBeLessThan(1e-4);
      // Generation reuses a sequence's cached prompt: after a switch none of it may be reused.
      const greedy = (served: ModelRegistry, adapter?: GenerateRequest["adapter"]) => generateText(served, request({ adapter, sampling: { temperature: 0 } }));
      const [bare, adapted] = [await greedy(registry), await greedy(registry, { path: files.lora, scale: 4 })];
      expect(sameGeneration(adapted, bare)).toBe(false);
      for (const [adapter, expected] of [[undefined, bare], [{ path: files.lora, scale: 4 }, adapted], [undefined, bare]] as const) {
        expect(sameGeneration(await greedy(single, adapter), expected)).toBe(true);
      }
      const lease = await single.lease(files.model);
      lease.release();
      const again = await single.lease(files.model, { path: files.lora });
      expect(again.sequence).toBe(lease.sequence); // one context served all of them
      again.release();
    } finally {
      await single.dispose();
    }
  });

  it("generates reproducibly for a seed (also when reusing the cached prompt), differently for another", async () => {
    const a = await generateText(registry, request());
    const b = await generateText(registry, request());
    const c = await generateText(registry, request({ sampling: { temperature: 1, seed: 2 } }));
    expect(a.tokens.length).toBeGreaterThan(0);
    expect(sameGeneration(b, a)).toBe(true);
    expect(c.tokens).not.toEqual(a.tokens);
    expect(a.logprobs.every((lp) => lp < 0)).toBe(true);
  });

  it("streams text whole characters at a time", async () => {
    // Byte-level tokens: the emoji is four tokens and must come out as one piece, never as U+FFFD.
    const pieces: string[] = [];
    const grammar = await (await getLlamaRuntime()).createGrammar({ grammar: 'root ::= "a😀é"' });
    for await (const t of generate(registry, request({ grammar }))) pieces.push(t.text);
    expect(pieces.join("")).toBe("a😀é");
    expect(pieces.some((p) => p.includes("\uFFFD"))).toBe(false);
    expect(pieces).toContain("😀");
  });

  it("gives each of 16 concurrent requests the tokens it gets alone", async () => {
    const requests = Array.from({ length: 16 }, (_, i) => request({ sampling: { temperature: 1, seed: 100 + i }, maxTokens: 32 }));
    const alone = [];
    for (const r of requests.slice(0, 4)) alone.push(await generateText(registry, r));
    const started = performance.now();
    const together = await Promise.all(requests.map((r) => generateText(registry, r)));
    const seconds = (performance.now() - started) / 1000;
    const tokens = together.reduce((n, r) => n + r.tokens.length, 0);
    console.log(`16 concurrent requests: ${tokens} tokens, ${(tokens / seconds).toFixed(0)} tok/s`);
    alone.forEach((r, i) => {
      expect(together[i].tokens).toEqual(r.tokens);
      // Batched float32 matmuls round differently in the last bits, and how the 16 are batched
      // depends on timing: differences up to ~1e-5 were seen (with either way of reading logits).
      together[i].logprobs.forEach((lp, j) => expect(lp).toBeCloseTo(r.logprobs[j], 4));
    });
  });

  it("constrains output to a JSON schema", async () => {
    const jsonSchema = {
      type: "object",
      properties: { ok: { type: "boolean" }, color: { enum: ["red", "green", "blue"] } },
      required: ["ok", "color"],
    };
    const grammar = await (await getLlamaRuntime()).createGrammarForJsonSchema(jsonSchema as Parameters<Llama["createGrammarForJsonSchema"]>[0]);
    for (const seed of [1, 2, 3]) {
      const r = await generateText(registry, request({ grammar, sampling: { seed }, maxTokens: 64 }));
      expect(r.finishReason).toBe("stop");
      const value = JSON.parse(r.text) as { ok: unknown; color: unknown };
      expect(typeof value.ok).toBe("boolean");
      expect(["red", "green", "blue"]).toContain(value.color);
    }
  });

  it("stops at maxTokens with finishReason length, and at a stop token", async () => {
    const r = await generateText(registry, request({ maxTokens: 3, ignoreEos: true }));
    expect(r).toMatchObject({ finishReason: "length" });
    expect(r.tokens).toHaveLength(3);
    const stopped = await generateText(registry, request({ stopTokens: [r.tokens[1]], ignoreEos: true, maxTokens: 3 }));
    expect(stopped).toMatchObject({ finishReason: "stop", stopToken: r.tokens[1], tokens: [r.tokens[0]] });
  });

  it("never samples a token whose text holds NUL, however strongly it is favoured", async () => {
    const lease = await registry.lease(files.model);
    const nul = nulTokenIds(lease.model, files.config.vocabSize);
    lease.release();
    expect(nul.length).toBeGreaterThan(0); // the byte-level vocabulary has a 0x00 token
    const favoured = Object.fromEntries(nul.map((t) => [t, 100]));
    const result = await generateText(registry, request({ sampling: { temperature: 1, seed: 3, logitBias: favoured } }));
    expect(result.tokens.some((t) => nul.includes(t))).toBe(false);
    expect(result.text).not.toContain("\u0000");
  });

  it("masks stop tokens until minTokens, and reports the most likely alternatives", async () => {
    const free = await generateText(registry, request({ maxTokens: 4, ignoreEos: true }));
    const stopAtFirst = request({ stopTokens: [free.tokens[0]], minTokens: 2, maxTokens: 4, topLogprobs: 3 });
    const tokens = [];
    for await (const t of generate(registry, stopAtFirst)) tokens.push(t);
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    expect(tokens[0].token).not.toBe(free.tokens[0]);
    for (const t of tokens) {
      expect(t.top).toHaveLength(3);
      expect(t.top![0].logprob).toBeGreaterThanOrEqual(t.top![1].logprob);
      expect(t.top![1].logprob).toBeGreaterThanOrEqual(t.top![2].logprob);
    }
  });

  it("ends at once when its signal is aborted", async () => {
    const controller = new AbortController();
    const stream = generate(registry, request({ maxTokens: 50, ignoreEos: true, signal: controller.signal }));
    await stream.next();
    controller.abort();
    let step = await stream.next();
    while (!step.done) step = await stream.next();
    expect(step.value).toEqual({ reason: "abort" });
  });

  it("gives the sequence back when its consumer stops early, and reports the decode loop's errors", async () => {
    const single = new ModelRegistry({ sequences: 1 });
    try {
      const stream = generate(single, request({ maxTokens: 50, ignoreEos: true }));
      await stream.next();
      await stream.next();
      await stream.return(undefined as never); // the loop may be a token ahead: it is stopped and awaited
      const next = await generateText(single, request({ maxTokens: 4, ignoreEos: true })); // would wait forever for the sequence
      expect(next.tokens).toHaveLength(4);
      const tooLong = Array.from({ length: 300 }, () => prompt()[0]);
      await expect(generateText(single, request({ promptTokens: tooLong }))).rejects.toThrow(/fills the context/);
      expect((await generateText(single, request({ maxTokens: 2, ignoreEos: true }))).tokens).toHaveLength(2);
    } finally {
      await single.dispose();
    }
  });

  it("starts a request on a used sequence while the context's other sequences keep generating", async () => {
    const pool = new ModelRegistry({ sequences: 4, sequencesPerContext: 4 });
    try {
      // Every sequence holds an earlier conversation, so the next request must erase part of one.
      await Promise.all(Array.from({ length: 4 }, (_, i) => generateText(pool, request({ maxTokens: 8, ignoreEos: true, sampling: { seed: i } }))));
      let othersProduced = 0;
      const others = Array.from({ length: 3 }, async (_, i) => {
        for await (const _ of generate(pool, request({ maxTokens: 200, ignoreEos: true, sampling: { seed: 10 + i } }))) othersProduced++;
      });
      while (othersProduced < 6) await new Promise((resolve) => setTimeout(resolve, 1));
      const before = othersProduced;
      const late = generate(pool, request({ promptTokens: [...prompt(), ...prompt()], maxTokens: 1, ignoreEos: true }));
      await late.next();
      // Without holding decodes back for the erase, it waited for all three to finish (~600 tokens).
      expect(othersProduced - before).toBeLessThan(60);
      await late.return(undefined as never);
      await Promise.all(others);
    } finally {
      await pool.dispose();
    }
  });

  it("evicts the least recently used idle model beyond maxModels", async () => {
    const small = new ModelRegistry({ maxModels: 1, sequences: 1 });
    const copy = path.join(files.dir, "copy.gguf");
    fs.copyFileSync(files.model, copy);
    try {
      const first = await small.lease(files.model);
      first.release();
      const second = await small.lease(copy);
      second.release();
      await new Promise((resolve) => setImmediate(resolve)); // eviction disposes after the lease settles
      expect(first.model.disposed).toBe(true);
      expect(second.model.disposed).toBe(false);
    } finally {
      await small.dispose();
    }
  });

  it("loads a model afresh once it has taken in maxAdaptersPerModel adapters, and frees the old copy when its requests end", async () => {
    const bounded = new ModelRegistry({ sequences: 2, maxAdaptersPerModel: 2 });
    const adapters = [0, 1, 2].map((i) => {
      const file = path.join(files.dir, `adapter-${i}.gguf`);
      fs.copyFileSync(files.lora, file);
      return { path: file };
    });
    try {
      const held = await bounded.lease(files.model, adapters[0]);
      const second = await bounded.lease(files.model, adapters[1]);
      second.release();
      expect(second.model).toBe(held.model);
      const third = await bounded.lease(files.model, adapters[2]);
      expect(third.model).not.toBe(held.model); // a third adapter file: a fresh copy of the model
      await new Promise((resolve) => setImmediate(resolve));
      expect(held.model.disposed).toBe(false); // still serving a request
      held.release();
      await new Promise((resolve) => setImmediate(resolve));
      expect(held.model.disposed).toBe(true);
      third.release();
      // An adapter the fresh copy already holds, and the bare model, stay on it.
      const again = await bounded.lease(files.model, adapters[2]);
      const bare = await bounded.lease(files.model);
      expect([again.model, bare.model]).toEqual([third.model, third.model]);
      again.release();
      bare.release();
    } finally {
      await bounded.dispose();
    }
  });
});
