import type { Principal } from "@/lib/auth/principal";
import type { ChatCompletionRequest } from "@/lib/inference/chat-request";
import type { ResolvedModel } from "@/lib/inference/resolve-model";

// A chat completion in flight, as createChatCompletion hands it to the executor that runs it (the
// embedded engine or an upstream server).

export interface ChatCompletionContext {
  principal: Principal;
  request: ChatCompletionRequest;
  /** The Svc-Project header: `team/project` to attribute usage to. */
  projectRef?: string;
  requestId: string;
  signal: AbortSignal;
}

export type CallStatus = "success" | "error" | "cancelled";

/** What an executor needs beyond the request: naming, and recording its outcome once. */
export interface Completion {
  ctx: ChatCompletionContext;
  resolved: ResolvedModel;
  id: string;
  created: number;
  /** Response headers that let a client refer to the recorded call. */
  callHeaders: Record<string, string>;
  /** Records the call; the response ends only after the promise settles (call-recorder.ts). */
  record(outcome: { output?: unknown; promptTokens: number; completionTokens: number; status: CallStatus; error?: string }): Promise<void>;
}
