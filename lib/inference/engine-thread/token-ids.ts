import type { LlamaModel } from "node-llama-cpp";
import { badRequest } from "@/lib/contract/errors";
import type { ChatCompletionRequest } from "@/lib/inference/chat-request";

// Token ids a request names must be the model's, as vLLM checks (with its messages): an unknown id
// in logit_bias would be silently ignored, and allowed_token_ids of unknown ids only would leave
// the sampler nothing to pick.

export function checkTokenIds(model: LlamaModel, request: ChatCompletionRequest): void {
  const size = model.fileInfo.metadata.tokenizer.ggml.tokens.length;
  const unknown = (id: number) => id < 0 || id >= size;
  const biased = Object.keys(request.logit_bias ?? {}).map(Number).filter(unknown);
  if (biased.length > 0) throw badRequest(`token_id(s) ${JSON.stringify(biased)} in logit_bias contain out-of-vocab token ids. Vocabulary size: ${size}`);
  if (request.allowed_token_ids?.some(unknown)) throw badRequest(`allowed_token_ids contains out-of-vocab token id. Vocabulary size: ${size}`);
}
