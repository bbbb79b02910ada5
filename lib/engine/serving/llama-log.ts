import { LlamaLogLevel } from "node-llama-cpp";
import { log } from "@/lib/log";

// llama.cpp's messages as Anneal's JSON log lines, but for one known to be false. node-llama-cpp
// pads each context to a multiple of 256 cells per sequence, so a model trained on fewer
// positions (tiny-chat: 128) makes llama.cpp warn "n_ctx_seq (256) > n_ctx_train (128) --
// possible training context overflow" at every context it creates; no sequence ever uses the
// padding: prompts and generation stay within ModelRegistry.contextSize, at most the trained
// context. A context larger than that padding still warns.

const CONTEXT_PADDING = 256;
const TRAINING_OVERFLOW = /n_ctx_seq \((\d+)\) > n_ctx_train \((\d+)\)/;

function onlyPadding(message: string): boolean {
  const overflow = TRAINING_OVERFLOW.exec(message);
  if (!overflow) return false;
  const [cells, trained] = [Number(overflow[1]), Number(overflow[2])];
  return cells <= Math.ceil(trained / CONTEXT_PADDING) * CONTEXT_PADDING;
}

export function logLlamaCpp(level: LlamaLogLevel, message: string): void {
  if (onlyPadding(message)) return;
  const fields = { source: "llama.cpp" };
  if (level === LlamaLogLevel.fatal || level === LlamaLogLevel.error) log.error(message, fields);
  else if (level === LlamaLogLevel.warn) log.warn(message, fields);
  else if (level === LlamaLogLevel.debug) log.debug(message, fields);
  else log.info(message, fields);
}
