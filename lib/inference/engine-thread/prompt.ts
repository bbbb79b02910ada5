import type { LlamaModel, Token } from "node-llama-cpp";
import { badRequest } from "@/lib/contract/errors";
import { encodePrompt, type ChatFormat } from "@/lib/engine/tokenizer/chat-template";
import { CHATML_TEMPLATE } from "@/lib/engine/tokenizer/chatml-template";
import type { ChatCompletionRequest } from "@/lib/inference/chat-request";
import { renderChatPrompt } from "./chat-template";
import { textTokenizer } from "@/lib/engine/serving/text-tokenizer";

// The prompt's token ids and the output budget, with vLLM's rules: max_completion_tokens, else
// max_tokens, else the context left; truncate_prompt_tokens keeps the prompt's last N tokens.

export interface Prompt {
  tokens: number[];
  maxTokens: number;
}

/** How the served model renders prompts (training reads the same from the GGUF: chatFormatFromGguf). */
function chatFormat(model: LlamaModel): ChatFormat {
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

export function buildPrompt(model: LlamaModel, contextSize: number, request: ChatCompletionRequest): Prompt {
  const format = chatFormat(model);
  let tokens = encodePrompt(format, renderChatPrompt(request, format), request.add_special_tokens);

  const requested = request.max_completion_tokens ?? request.max_tokens;
  const truncate = request.truncate_prompt_tokens;
  if (truncate !== undefined) {
    const allowed = contextSize - (requested ?? 1);
    const keep = truncate === -1 ? allowed : truncate;
    if (keep > allowed) {
      throw badRequest(`truncate_prompt_tokens=${truncate} cannot be greater than max_model_len - max_tokens = ${allowed}. Please request a smaller truncation size.`);
    }
    if (tokens.length > keep) tokens = tokens.slice(tokens.length - keep);
  }
  if (tokens.length === 0) throw badRequest("The prompt is empty after rendering the chat template.");
  if (requested !== undefined && tokens.length + requested > contextSize) {
    throw badRequest(
      `You passed ${tokens.length} input tokens and requested ${requested} output tokens. However, the model's context length is only ${contextSize} tokens, resulting in a maximum input length of ${contextSize - requested} tokens. Please reduce the length of the input prompt.`,
    );
  }
  if (tokens.length >= contextSize) {
    throw badRequest(`You passed ${tokens.length} input tokens, but the model's context length is only ${contextSize} tokens. Please reduce the length of the input prompt.`);
  }
  return { tokens, maxTokens: requested ?? contextSize - tokens.length };
}
