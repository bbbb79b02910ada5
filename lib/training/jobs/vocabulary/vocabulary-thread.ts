// The vocabulary thread: holds llama.cpp's vocabularies of the GGUFs training threads tokenize
// (loaded vocabulary-only, shared by the jobs of one file) and answers their requests
// (remote-vocabulary.ts). The runner never terminates it while llama.cpp is loaded: it frees the
// models and the runtime first (vocabulary-host.ts).
import { parentPort, type MessagePort } from "node:worker_threads";
import { loadLlamaCppVocabulary, type LoadedVocabulary } from "@/lib/engine/serving/llama-cpp-vocabulary";
import { disposeLlamaRuntime } from "@/lib/engine/serving/llama-runtime";
import type { TrainingVocabulary } from "@/lib/engine/tokenizer/training-vocabulary";
import type { VocabularyReply, VocabularyRequest, VocabularySnapshot } from "./remote-vocabulary";

export type ToVocabularyThread = { type: "connect"; port: MessagePort } | { type: "dispose" };
export type FromVocabularyThread = { type: "disposed" };

const files = new Map<string, { loading: Promise<LoadedVocabulary>; users: number }>();

function acquire(path: string): Promise<LoadedVocabulary> {
  let file = files.get(path);
  if (!file) {
    file = { loading: loadLlamaCppVocabulary(path), users: 0 };
    files.set(path, file);
    file.loading.catch(() => files.delete(path));
  }
  file.users++;
  return file.loading;
}

function release(path: string): void {
  const file = files.get(path);
  if (!file || --file.users > 0) return;
  files.delete(path);
  void file.loading.then((loaded) => loaded.close()).catch(() => undefined);
}

function answer(vocabulary: TrainingVocabulary, request: Exclude<VocabularyRequest, { op: "load" }>): unknown {
  switch (request.op) {
    case "encode":
      return vocabulary.encode(request.text, request.parseSpecials);
    case "decode":
      return vocabulary.decodeBytes(request.ids);
    case "tokenId":
      return vocabulary.tokenId(request.piece) ?? null;
  }
}

function snapshot({ vocabSize, padId, stopIds, format }: TrainingVocabulary): VocabularySnapshot {
  return { vocabSize, padId, stopIds, template: format.template, bos: format.bos, eos: format.eos };
}

/** One training thread's port: its file's vocabulary, held until the port closes (the job ended,
 *  or its thread was terminated). */
function serve(port: MessagePort): void {
  let signal: Int32Array | undefined;
  let path: string | undefined;
  let vocabulary: TrainingVocabulary | undefined;
  const reply = (message: VocabularyReply) => {
    port.postMessage(message);
    if (!signal) return;
    Atomics.store(signal, 0, 1);
    Atomics.notify(signal, 0);
  };
  port.on("message", async (request: VocabularyRequest) => {
    try {
      if (request.op === "load") {
        if (path) throw new Error("This port has loaded its vocabulary already.");
        signal = request.signal;
        path = request.path;
        vocabulary = (await acquire(path)).vocabulary;
        return reply({ ok: snapshot(vocabulary) });
      }
      if (!vocabulary) throw new Error("No vocabulary is loaded on this port.");
      reply({ ok: answer(vocabulary, request) });
    } catch (error) {
      reply({ error: (error as Error).message });
    }
  });
  port.once("close", () => path && release(path));
}

async function dispose(): Promise<void> {
  const loading = [...files.values()].map((f) => f.loading);
  files.clear();
  await Promise.allSettled(loading.map(async (l) => (await l).close()));
  await disposeLlamaRuntime();
  parentPort!.postMessage({ type: "disposed" } satisfies FromVocabularyThread);
}

parentPort!.on("message", (message: ToVocabularyThread) => {
  if (message.type === "connect") serve(message.port);
  else void dispose();
});
