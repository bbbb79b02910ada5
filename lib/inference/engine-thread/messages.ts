import type { AdapterRef } from "@/lib/engine/serving/model-registry";
import { AppError, type ErrorCode } from "@/lib/contract/errors";
import type { ChatCompletionRequest } from "@/lib/inference/chat-request";

// What the web server's event loop and the engine thread say to each other (engine-client.ts,
// engine-thread.ts). Everything here crosses a worker boundary: plain data only.

/** One chat completion on the embedded engine: the validated request and the weights that serve it. */
export interface CompletionJob {
  gguf: string;
  adapter?: AdapterRef;
  /** The inference name, for messages. */
  servedName: string;
  /** Trainable models return logprobs unless the request refuses them (RL needs them). */
  trainable: boolean;
  request: ChatCompletionRequest;
}

export type FinishReason = "stop" | "length" | "abort" | "repetition";

/** `logprobs.content[i]` (vLLM): the token as text or `token_id:<id>`, its log-probability and UTF-8
 *  bytes, and the most likely alternatives. */
export interface LogprobEntry {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: { token: string; logprob: number; bytes: number[] }[];
}

/** What a choice produces, in order: text with its tokens, then one finish (run-choices.ts). */
export type ChoiceEvent =
  | { kind: "delta"; index: number; text: string; tokenIds: number[]; logprobs: LogprobEntry[] }
  | { kind: "finish"; index: number; finishReason: FinishReason; stopReason: number | null };

/** vLLM's prompt_logprobs: null for the first token, then the prompt token and the most likely
 *  alternatives by id. */
export type PromptLogprobs = (Record<string, { logprob: number; rank: number; decoded_token: string }> | null)[];

/** The prompt as the engine tokenized it, before any choice is generated. */
export interface PreparedCompletion {
  promptTokens: number[];
  maxTokens: number;
  /** `echo`: the final assistant message's text, which each choice's content starts with. */
  echo: string;
  /** Present when the request asked for prompt_logprobs (non-streaming requests only). */
  promptLogprobs?: PromptLogprobs;
}

export type ToThread =
  | { type: "start"; id: number; job: CompletionJob }
  | { type: "abort"; id: number }
  | { type: "probe"; id: number }
  | { type: "dispose" };

/** The thread posts these in arrays: everything one event loop turn produced, in one message. */
export type FromThread =
  | { type: "prepared"; id: number; prepared: PreparedCompletion }
  | { type: "event"; id: number; event: ChoiceEvent }
  | { type: "end"; id: number }
  | { type: "error"; id: number; error: ThreadError }
  | { type: "disposed" };

/** An error as it crosses the boundary: AppErrors keep their code (and so their HTTP status). */
export interface ThreadError {
  message: string;
  stack?: string;
  app?: { code: ErrorCode; headers: Record<string, string> };
}

export function toThreadError(error: unknown): ThreadError {
  if (error instanceof AppError) return { message: error.message, app: { code: error.code, headers: error.headers } };
  const e = error instanceof Error ? error : new Error(String(error));
  return { message: e.message, stack: e.stack };
}

export function fromThreadError(error: ThreadError): Error {
  if (error.app) return new AppError(error.app.code, error.message, error.app.headers);
  const e = new Error(error.message);
  if (error.stack) e.stack = error.stack;
  return e;
}
