import type { LlamaModel } from "node-llama-cpp";
import { badRequest } from "@/lib/contract/errors";
import { servedChatFormat } from "@/lib/engine/serving/served-chat-format";
import { encodePrompt } from "@/lib/engine/tokenizer/chat-template";
import type { ChatCompletionRequest } from "@/lib/inference/chat-request";
import { renderChatPrompt } from "./chat-template";

// The prompt's token ids and the output budget, with vLLM's rules: max_completion_tokens, else
// max_tokens, else the context left; truncate_prompt_tokens keeps the prompt's last N tokens.

export interface Prompt {
  tokens: number[];
  maxTokens: number;
}

export function buildPrompt(model: LlamaModel, contextSize: number, request: ChatCompletionRequest): Prompt {
  // Rendered as training renders this file (TrainingVocabulary.format): one renderer, one tokenizer.
  const format = servedChatFormat(model);
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
