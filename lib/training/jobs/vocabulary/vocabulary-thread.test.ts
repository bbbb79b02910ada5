// Training threads read a non-Anneal model's vocabulary through the vocabulary thread: the same
// ids, texts, lookups and specials as llama.cpp's vocabulary loaded in place, and a training thread
// terminated while it tokenizes leaves the process and the vocabulary thread running.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MessageChannel, Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadLlamaCppVocabulary, type LoadedVocabulary } from "@/lib/engine/serving/llama-cpp-vocabulary";
import { writeRealLayoutModel } from "@/lib/engine/test-support/real-layout-models";
import { SMALL_SHAPES } from "@/lib/engine/test-support/real-layout-shapes";
import { remoteVocabulary } from "./remote-vocabulary";
import { VocabularyThread } from "./vocabulary-host";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-vocabulary-thread-"));
const file = path.join(dir, "qwen3.gguf");
const host = new VocabularyThread();
let local: LoadedVocabulary;

beforeAll(async () => {
  writeRealLayoutModel(file, SMALL_SHAPES.qwen3, { seed: 3 });
  local = await loadLlamaCppVocabulary(file);
});
afterAll(async () => {
  await host.dispose();
  await local?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function connect() {
  const { port1, port2 } = new MessageChannel();
  host.connect(port2);
  return port1;
}

describe("the vocabulary thread", () => {
  it("answers as llama.cpp's vocabulary loaded in place", async () => {
    const remote = remoteVocabulary(connect(), file);
    try {
      const [r, l] = [remote.vocabulary, local.vocabulary];
      const text = "<|im_start|>user\nWeather in Zürich? <think>21.5 °C</think><|im_end|>\n";
      expect(r.encode(text, true)).toEqual(l.encode(text, true));
      expect(r.encode(text, false)).toEqual(l.encode(text, false));
      expect(r.format.tokenize(text)).toEqual(l.format.tokenize(text));
      const ids = l.encode(text, true);
      expect([...r.decodeBytes(ids)]).toEqual([...l.decodeBytes(ids)]);
      expect(new TextDecoder().decode(r.decodeBytes(ids))).toBe(text);
      for (const piece of ["<|im_end|>", "Ġthe", "no such token"]) expect(r.tokenId(piece)).toBe(l.tokenId(piece));
      const { tokenize: _r, ...rf } = r.format;
      const { tokenize: _l, ...lf } = l.format;
      expect(rf).toEqual(lf);
      expect([r.vocabSize, r.padId, r.stopIds]).toEqual([l.vocabSize, l.padId, l.stopIds]);
    } finally {
      await remote.close();
    }
  });

  it("outlives a training thread terminated while it tokenizes", async () => {
    const { port1, port2 } = new MessageChannel();
    host.connect(port2);
    const entry = path.resolve(import.meta.dirname, "../../test-support/tokenizing-thread.ts");
    const code = `import("tsx/esm/api").then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}))`;
    const thread = new Worker(code, { eval: true, workerData: { port: port1, path: file }, transferList: [port1] });
    const first = await new Promise((resolve, reject) => thread.once("message", resolve).once("error", reject));
    expect(first).toEqual(local.vocabulary.encode("hello", false));
    await new Promise((resolve) => setTimeout(resolve, 200)); // mid-loop
    await thread.terminate();
    // Still here, and still answering.
    const again = remoteVocabulary(connect(), file);
    expect(again.vocabulary.encode("hello", false)).toEqual(first);
    await again.close();
  });
});
