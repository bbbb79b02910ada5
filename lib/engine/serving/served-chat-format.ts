// How the engine renders and tokenizes a served model's prompts: the GGUF's chat template (ChatML
// when it has none), BOS and EOS as llama.cpp reads them, and the engine's tokenizer
// (text-tokenizer.ts). Serving builds every prompt with it (engine-thread/prompt.ts), and training
// renders a non-Anneal model's conversations with the same (llama-cpp-vocabulary.ts).

import type { LlamaModel, Token } from "node-llama-cpp";
import type { ChatFormat } from "../tokenizer/chat-template";
import { CHATML_TEMPLATE } from "../tokenizer/chatml-template";
import { textTokenizer } from "./text-tokenizer";

export function servedChatFormat(model: LlamaModel): ChatFormat {
  const metadata = model.fileInfo.metadata as { tokenizer?: { chat_template?: string } };
  const token = (id: Token | null) => (id === null ? null : { text: model.detokenize([id], true), id });
  const tokenize = textTokenizer(model);
  return {
    template: metadata.tokenizer?.chat_template ?? CHATML_TEMPLATE,
    bos: token(model.tokens.bos),
    eos: token(model.tokens.eos),
    tokenize: (text) => tokenize(text, true),
  };
}
