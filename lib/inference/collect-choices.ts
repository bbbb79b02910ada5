import type { ChatCompletionRequest } from "@/lib/inference/chat-request";
import type { ChatCompletion } from "@/lib/inference/chat-response";
import type { LogprobEntry } from "@/lib/inference/logprob-entry";
import type { ChoiceEvent } from "@/lib/inference/run-choices";

// The non-streaming response: every choice's events gathered into one chat.completion body.

export interface CompletionHeader {
  id: string;
  created: number;
  model: string;
  systemFingerprint: string;
}

interface ChoiceState {
  text: string;
  tokenIds: number[];
  logprobs: LogprobEntry[];
  finishReason: string;
  stopReason: number | null;
}

export async function collectChoices(
  events: AsyncIterable<ChoiceEvent>,
  options: { header: CompletionHeader; echo: string; request: ChatCompletionRequest; promptTokens: number[] },
): Promise<ChatCompletion> {
  const { request, header } = options;
  const choices: ChoiceState[] = Array.from({ length: request.n }, () => ({ text: "", tokenIds: [], logprobs: [], finishReason: "stop", stopReason: null }));
  for await (const event of events) {
    const choice = choices[event.index];
    if (event.kind === "delta") {
      choice.text += event.text;
      choice.tokenIds.push(...event.tokenIds);
      choice.logprobs.push(...event.logprobs);
    } else {
      choice.finishReason = event.finishReason;
      choice.stopReason = event.stopReason;
    }
  }
  const completionTokens = choices.reduce((sum, c) => sum + c.tokenIds.length, 0);
  const withLogprobs = request.logprobs !== false && choices.some((c) => c.logprobs.length > 0);
  return {
    id: header.id,
    object: "chat.completion",
    created: header.created,
    model: header.model,
    choices: choices.map((c, index) => ({
      index,
      message: { role: "assistant", content: options.echo + c.text, refusal: null, annotations: null, audio: null, function_call: null, tool_calls: [], reasoning: null },
      logprobs: withLogprobs ? { content: c.logprobs } : null,
      finish_reason: c.finishReason,
      stop_reason: c.stopReason,
      token_ids: request.return_token_ids ? c.tokenIds : null,
    })),
    usage: {
      prompt_tokens: options.promptTokens.length,
      completion_tokens: completionTokens,
      total_tokens: options.promptTokens.length + completionTokens,
      prompt_tokens_details: null,
    },
    service_tier: null,
    system_fingerprint: header.systemFingerprint,
    prompt_logprobs: null,
    prompt_token_ids: request.return_token_ids ? options.promptTokens : null,
    kv_transfer_params: request.kv_transfer_params ?? null,
  };
}
