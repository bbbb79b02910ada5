// How many threads serving decodes on (model-registry.ts, idle-cpus.ts): a lone request on every CPU
// that sat idle, never more threads at once than CPUs. ggml's threads spin at a barrier after every
// graph node, so a decode on more threads than free CPUs all but stops: threads: { min: 1 } under
// node-llama-cpp's default budget of 4 threads on 2 CPUs took minutes for 8 tokens of Qwen2.5-0.5B.
import os from "node:os";
import type { LlamaContext } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTinyModel, type TinyModelFiles } from "../test-support/tiny-model";
import { generateText } from "./generate";
import { threadBudget } from "./idle-cpus";
import { getLlamaRuntime } from "./llama-runtime";
import { ModelRegistry } from "./model-registry";

const CPUS = os.availableParallelism();
/** What the registry is told sat idle before each decoding starts. */
let idleCpus = CPUS;
let files: TinyModelFiles;
let registry: ModelRegistry;

beforeAll(() => {
  files = writeTinyModel();
  registry = new ModelRegistry({ maxModels: 1, sequences: 8 }, { busy: () => idleCpus, quiet: () => {} });
});
afterAll(async () => {
  await registry.dispose();
  files.remove();
});

const promptOf = (i: number) => [1, 5 + i, 9, 5];
const adapterOf = (path?: string) => (path ? { path } : undefined);
const answer = (i: number, adapter?: string) =>
  generateText(registry, { model: files.model, adapter: adapterOf(adapter), promptTokens: promptOf(i), maxTokens: 16, ignoreEos: true, sampling: { temperature: 0 } });

/** The context that answered prompt `i` alone: the idle one whose cache holds that prompt. */
async function contextOfLoneAnswer(i: number, adapter?: string): Promise<LlamaContext> {
  await answer(i, adapter);
  const lease = await registry.lease(files.model, adapterOf(adapter), promptOf(i));
  lease.release();
  return lease.sequence.context;
}

describe("serving's decode threads", () => {
  it("a budget of the idle CPUs, at least one thread", () => {
    expect([threadBudget(2, 2), threadBudget(2, 1.8), threadBudget(2, 1.7), threadBudget(2, 0), threadBudget(2, 6), threadBudget(4, 2.9)]).toEqual([2, 2, 1, 1, 2, 3]);
  });

  it("a lone request on an idle machine decodes on every CPU, no more", async () => {
    idleCpus = CPUS;
    expect((await contextOfLoneAnswer(8)).currentThreads).toBe(CPUS);
    expect((await getLlamaRuntime()).maxThreads).toBe(CPUS);
  });

  it("8 streams at once, half of them switching a context to an adapter, all finish; a lone request then decodes on every CPU again", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => answer(i, i % 2 ? files.lora : undefined)));
    expect(results.map((r) => r.tokens.length)).toEqual(Array(8).fill(16));
    expect((await contextOfLoneAnswer(9, files.lora)).currentThreads).toBe(CPUS);
  }, 30_000);

  it("a lone request on a busy machine decodes on one thread", async () => {
    idleCpus = 0.5;
    expect((await contextOfLoneAnswer(10)).currentThreads).toBe(1);
  });
});
