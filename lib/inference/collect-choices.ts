import type { ChatCompletionRequest } from "@/lib/inference/chat-request";
import type { ChatCompletion } from "@/lib/inference/chat-response";
import type { ChoiceEvent, LogprobEntry } from "@/lib/inference/engine-thread/messages";

// A completion's events gathered into one chat.completion body: the non-streaming response, and
// what a streamed call is recorded as (the body the same request without `stream` would get).

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

interface CompletionOptions {
  header: CompletionHeader;
  echo: string;
  request: ChatCompletionRequest;
  promptTokens: number[];
}

export class CompletionAccumulator {
  private readonly choices: ChoiceState[];

  constructor(private readonly options: CompletionOptions) {
    this.choices = Array.from({ length: options.request.n }, () => ({ text: "", tokenIds: [], logprobs: [], finishReason: "stop", stopReason: null }));
  }

  add(event: ChoiceEvent): void {
    const choice = this.choices[event.index];
    if (event.kind === "delta") {
      choice.text += event.text;
      for (const id of event.tokenIds) choice.tokenIds.push(id);
      for (const entry of event.logprobs) choice.logprobs.push(entry);
    } else {
      choice.finishReason = event.finishReason;
      choice.stopReason = event.stopReason;
    }
  }

  /** Tokens generated so far: by one choice, or by all. */
  completionTokens(index?: number): number {
    if (index !== undefined) return this.choices[index].tokenIds.length;
    return this.choices.reduce((sum, c) => sum + c.tokenIds.length, 0);
  }

  body(): ChatCompletion {
    const { request, header, echo, promptTokens } = this.options;
    const completionTokens = this.completionTokens();
    const withLogprobs = request.logprobs !== false && this.choices.some((c) => c.logprobs.length > 0);
    return {
      id: header.id,
      object: "chat.completion",
      created: header.created,
      model: header.model,
      choices: this.choices.map((c, index) => ({
        index,
        message: { role: "assistant", content: echo + c.text, refusal: null, annotations: null, audio: null, function_call: null, tool_calls: [], reasoning: null },
        logprobs: withLogprobs ? { content: c.logprobs } : null,
        finish_reason: c.finishReason,
        stop_reason: c.stopReason,
        token_ids: request.return_token_ids ? c.tokenIds : null,
      })),
      usage: {
        prompt_tokens: promptTokens.length,
        completion_tokens: completionTokens,
        total_tokens: promptTokens.length + completionTokens,
        prompt_tokens_details: null,
      },
      service_tier: null,
      system_fingerprint: header.systemFingerprint,
      prompt_logprobs: null,
      prompt_token_ids: request.return_token_ids ? promptTokens : null,
      kv_transfer_params: request.kv_transfer_params ?? null,
    };
  }
}

export async function collectChoices(events: AsyncIterable<ChoiceEvent>, options: CompletionOptions): Promise<ChatCompletion> {
  const completion = new CompletionAccumulator(options);
  for await (const event of events) completion.add(event);
  return completion.body();
}
