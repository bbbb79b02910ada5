import { getEventListeners } from "node:events";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTinyModel, type TinyModelFiles } from "@/lib/engine/test-support/tiny-model";
import { AppError } from "@/lib/contract/errors";
import { chatCompletionRequestSchema } from "@/lib/inference/chat-request";
import { EngineThread } from "./engine-client";
import type { ChoiceEvent, CompletionJob } from "./messages";

// The engine thread as the web server uses it: jobs in, prompts and events out, errors with their
// status, aborts, and a thread that cannot start.

let files: TinyModelFiles;
const engine = new EngineThread();
beforeAll(() => {
  files = writeTinyModel(3);
});
afterAll(async () => {
  await engine.dispose();
  files.remove();
});

const job = (request: Record<string, unknown>): CompletionJob => ({
  gguf: files.model,
  servedName: "test/tiny",
  trainable: true,
  request: chatCompletionRequestSchema.parse({ messages: [{ role: "user", content: "Hi" }], seed: 1, ...request }),
});

async function collect(events: AsyncIterable<ChoiceEvent>): Promise<ChoiceEvent[]> {
  const out: ChoiceEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe("EngineThread", () => {
  it("returns the prepared prompt, then each choice's events, the same for the same seed", async () => {
    const runs = [engine.start(job({ max_tokens: 6, ignore_eos: true, n: 2 })), engine.start(job({ max_tokens: 6, ignore_eos: true, n: 2 }))];
    const prepared = await runs[0].prepared;
    expect(prepared.promptTokens.length).toBeGreaterThan(3);
    expect(prepared.maxTokens).toBe(6);
    const [a, b] = await Promise.all(runs.map((r) => collect(r.events())));
    const tokens = (events: ChoiceEvent[], index: number) => events.flatMap((e) => (e.kind === "delta" && e.index === index ? e.tokenIds : []));
    expect(tokens(a, 0)).toHaveLength(6);
    expect(tokens(a, 1)).toHaveLength(6);
    expect(tokens(b, 0)).toEqual(tokens(a, 0));
    expect(a.filter((e) => e.kind === "finish").map((e) => e.kind === "finish" && e.finishReason)).toEqual(["length", "length"]);
  });

  it("keeps an AppError's code across the thread (a prompt longer than the context is a 400)", async () => {
    const run = engine.start(job({ messages: [{ role: "user", content: "word ".repeat(400) }] }));
    const error = await run.prepared.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    await expect(collect(run.events())).rejects.toThrow(/context length/);
  });

  it("leaves no abort listener on the caller's signal once a job has ended (an RL run's signal outlives its rollouts)", async () => {
    const controller = new AbortController();
    for (let i = 0; i < 3; i++) await collect(engine.start(job({ max_tokens: 2 }), controller.signal).events());
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("stops generating when aborted, and when its reader stops early", async () => {
    const aborted = engine.start(job({ max_tokens: 200, ignore_eos: true }));
    const events = aborted.events();
    await events.next();
    aborted.abort();
    const rest = await collect(events);
    expect(rest.at(-1)).toMatchObject({ kind: "finish", finishReason: "abort" });
    expect(rest.length).toBeLessThan(150);

    const left = engine.start(job({ max_tokens: 200, ignore_eos: true }));
    for await (const _ of left.events()) break; // returning early aborts
    expect(left.aborted).toBe(true);
  });

  it("fails the jobs of a thread that cannot start with a 503 that says why, and keeps answering", async () => {
    const broken = new EngineThread(path.join(files.dir, "no-such-entry.mjs"));
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await broken.start(job({ max_tokens: 2 })).prepared.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(503);
      expect((error as AppError).message).toMatch(/The embedded engine stopped \(.*no-such-entry/);
    }
    await expect(broken.probe()).rejects.toThrow(/engine stopped/);
  });
});
