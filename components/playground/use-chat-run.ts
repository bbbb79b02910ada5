"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { ChatCompletionBody, LogprobToken, Usage } from "@/components/inference/queries";
import { ApiError, describeApiError } from "@/lib/client/api-fetch";
import { readSseData } from "@/lib/client/sse";
import type { ChatCompletionChunk } from "@/lib/inference/chat-response";

// One streamed chat completion from the console: a plain fetch (the session cookie authenticates;
// Svc-Project attributes it to the workspace's project), SSE chunks folded into text, logprob
// tokens and usage, with time to first token and total time. stop() aborts the request, which
// also stops generation on the server. Renders at most once per frame while tokens arrive.

export type RunStatus = "waiting" | "streaming" | "done" | "stopped" | "error";

export interface ChatRun {
  status: RunStatus;
  request: ChatCompletionBody;
  /** The model that answered, as the server names it. */
  model?: string;
  text: string;
  tokens: LogprobToken[];
  usage?: Usage;
  finishReason?: string;
  error?: string;
  /** 422 messages by field (`temperature`, `max_tokens`, …). */
  fieldErrors?: Record<string, string>;
  /** Milliseconds from sending to the first content token, and to the end. */
  ttftMs?: number;
  totalMs?: number;
  callId?: string;
}

export function useChatRun() {
  const [run, setRun] = useState<ChatRun | null>(null);
  const controller = useRef<AbortController | null>(null);
  const live = useRef<ChatRun | null>(null);
  const frame = useRef<number | null>(null);

  const flush = useCallback(() => {
    frame.current = null;
    if (live.current) setRun({ ...live.current, tokens: [...live.current.tokens] });
  }, []);
  const schedule = useCallback(() => {
    frame.current ??= requestAnimationFrame(flush);
  }, [flush]);
  const finish = useCallback(
    (patch: Partial<ChatRun>) => {
      if (!live.current) return;
      Object.assign(live.current, patch);
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      flush();
    },
    [flush],
  );

  const start = useCallback(
    async (request: ChatCompletionBody, projectRef: string | undefined) => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      const state: ChatRun = { status: "waiting", request, text: "", tokens: [] };
      live.current = state;
      setRun({ ...state });
      const startedAt = performance.now();
      const elapsed = () => Math.round(performance.now() - startedAt);
      try {
        const response = await fetch("/v1/chat/completions", {
          method: "POST",
          headers: { "content-type": "application/json", accept: "text/event-stream", ...(projectRef ? { "svc-project": projectRef } : {}) },
          body: JSON.stringify(request),
          credentials: "same-origin",
          cache: "no-store",
          signal: abort.signal,
        });
        if (!response.ok || !response.body) {
          const body: unknown = await response.json().catch(() => undefined);
          const error = describeApiError(response.status, body);
          const message = (body as { error?: { message?: string } } | undefined)?.error?.message;
          if (live.current === state) finish({ status: "error", error: error.message || message, fieldErrors: error.fields, totalMs: elapsed() });
          return;
        }
        state.callId = response.headers.get("anneal-call-id") ?? undefined;
        for await (const data of readSseData(response.body)) {
          if (data === "[DONE]") break;
          const chunk = JSON.parse(data) as ChatCompletionChunk & { error?: { message: string } };
          if (chunk.error) {
            finish({ status: "error", error: chunk.error.message, totalMs: elapsed() });
            return;
          }
          state.model ??= chunk.model;
          if (chunk.usage) state.usage = chunk.usage;
          for (const choice of chunk.choices) {
            if (choice.index !== 0) continue;
            const content = choice.delta.content ?? "";
            if (content || choice.logprobs?.content?.length) {
              state.ttftMs ??= elapsed();
              state.status = "streaming";
            }
            state.text += content;
            if (choice.logprobs?.content) state.tokens.push(...choice.logprobs.content);
            if (choice.finish_reason) state.finishReason = choice.finish_reason;
          }
          schedule();
        }
        finish({ status: "done", totalMs: elapsed() });
      } catch (error) {
        if (abort.signal.aborted) {
          if (live.current === state) finish({ status: "stopped", totalMs: elapsed() });
          return;
        }
        const message = error instanceof ApiError ? error.message : "The stream broke off: check that the server is running.";
        finish({ status: "error", error: message, totalMs: elapsed() });
      } finally {
        if (controller.current === abort) controller.current = null;
      }
    },
    [finish, schedule],
  );

  const stop = useCallback(() => controller.current?.abort(), []);
  const clear = useCallback(() => {
    controller.current?.abort();
    live.current = null;
    setRun(null);
  }, []);

  useEffect(() => () => controller.current?.abort(), []);

  const busy = run?.status === "waiting" || run?.status === "streaming";
  return { run, busy, start, stop, clear };
}
