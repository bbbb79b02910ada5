// Where the shipped tiny-chat model and its model card live (the repository's models/ directory).
import path from "node:path";

const MODELS_DIR = path.resolve(import.meta.dirname, "../../../models");

export const TINY_CHAT_GGUF = path.join(MODELS_DIR, "tiny-chat.gguf");
export const TINY_CHAT_CARD = path.join(MODELS_DIR, "README.md");
