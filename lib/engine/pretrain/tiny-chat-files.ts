// Where the shipped base models and their model cards live (the repository's models/ directory).
import path from "node:path";

const MODELS_DIR = path.resolve(import.meta.dirname, "../../../models");

export const baseModelFiles = (name: string) => ({ gguf: path.join(MODELS_DIR, `${name}.gguf`), card: path.join(MODELS_DIR, `${name}.md`) });

export const TINY_CHAT_GGUF = baseModelFiles("tiny-chat").gguf;
export const TINY_CHAT_2_GGUF = baseModelFiles("tiny-chat-2").gguf;
export const TINY_CHAT_3_GGUF = baseModelFiles("tiny-chat-3").gguf;
