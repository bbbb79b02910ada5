// A training thread's view of a vocabulary the vocabulary thread holds in llama.cpp
// (vocabulary-thread.ts): each call is a request on a MessagePort, answered while this thread
// waits (Atomics.wait), so the vocabulary is synchronous as training needs it. The training thread
// itself never calls into node-llama-cpp: the runner may terminate it at any moment (cancel, a
// lost lease), and terminating a thread inside node-llama-cpp aborts the whole process.
import { receiveMessageOnPort, type MessagePort } from "node:worker_threads";
import type { LoadedVocabulary } from "@/lib/engine/serving/llama-cpp-vocabulary";
import type { ChatFormat } from "@/lib/engine/tokenizer/chat-template";
import type { TrainingVocabulary } from "@/lib/engine/tokenizer/training-vocabulary";

export type VocabularyRequest =
  /** First on every port: the file, and the word the thread flips when each answer is posted. */
  | { op: "load"; path: string; signal: Int32Array }
  | { op: "encode"; text: string; parseSpecials: boolean }
  | { op: "decode"; ids: number[] }
  | { op: "tokenId"; piece: string };

/** What a loaded vocabulary tells once, at load. */
export type VocabularySnapshot = Pick<TrainingVocabulary, "vocabSize" | "padId" | "stopIds"> & Pick<ChatFormat, "template" | "bos" | "eos">;

export type VocabularyReply = { ok: unknown } | { error: string };

/** Loading a 150k vocabulary takes ~2 s; anything else, well under a millisecond. */
const ANSWER_MS = 120_000;

export function remoteVocabulary(port: MessagePort, ggufPath: string): LoadedVocabulary {
  const signal = new Int32Array(new SharedArrayBuffer(4));
  function call<T>(request: VocabularyRequest): T {
    Atomics.store(signal, 0, 0);
    port.postMessage(request);
    for (;;) {
      // The answer is posted before the word flips, so once awake it is on the port.
      const received = receiveMessageOnPort(port);
      if (received) {
        const reply = received.message as VocabularyReply;
        if ("error" in reply) throw new Error(reply.error);
        return reply.ok as T;
      }
      if (Atomics.wait(signal, 0, 0, ANSWER_MS) === "timed-out") throw new Error("The vocabulary thread did not answer.");
    }
  }
  const loaded = call<VocabularySnapshot>({ op: "load", path: ggufPath, signal });
  const encode = (text: string, parseSpecials: boolean) => call<number[]>({ op: "encode", text, parseSpecials });
  const vocabulary: TrainingVocabulary = {
    vocabSize: loaded.vocabSize,
    encode,
    decodeBytes: (ids) => call<Uint8Array>({ op: "decode", ids: [...ids] }),
    tokenId: (piece) => call<number | null>({ op: "tokenId", piece }) ?? undefined,
    padId: loaded.padId,
    stopIds: loaded.stopIds,
    format: { template: loaded.template, bos: loaded.bos, eos: loaded.eos, endOfTurn: loaded.stopIds, tokenize: (text) => encode(text, true) },
  };
  return { vocabulary, close: async () => port.close() };
}
