// The one-shot thread the base probe runs on (base-probe.ts): the probe's ids in a base's vocabulary
// (llama.cpp's for a base Anneal did not write), or Anneal's logprobs of them on the GGUF — a whole
// forward, ~1 GB read and seconds of compute for a 0.5B base, which must not stall the web server's
// event loop.
import { loadTrainingVocabulary } from "@/lib/engine/serving/llama-cpp-vocabulary";
import { answerOnce } from "./one-shot-answer";
import { probeLogprobs } from "./probe";

export type ProbeThreadRequest = { op: "ids"; gguf: string; text: string; tokens: number } | { op: "logprobs"; gguf: string; ids: number[] };

async function answer(request: ProbeThreadRequest): Promise<number[]> {
  if (request.op === "logprobs") return probeLogprobs(request.gguf, request.ids);
  const { vocabulary, close } = await loadTrainingVocabulary(request.gguf);
  try {
    return vocabulary.encode(request.text, false).slice(0, request.tokens);
  } finally {
    await close();
  }
}

await answerOnce(answer);
