import { log } from "@/lib/log";
import type { ChatCompletion, ChatCompletionChunk } from "@/lib/inference/chat-response";
import type { ChatCompletionRequest } from "@/lib/inference/chat-request";
import { CompletionAccumulator, type CompletionHeader } from "@/lib/inference/collect-choices";
import type { CompletionRun } from "@/lib/inference/engine-thread/engine-client";
import { AppError } from "@/lib/contract/errors";

// The streamed response, in vLLM's SSE sequence: a role chunk per choice (prompt_token_ids in the
// first with return_token_ids), an echo chunk, delta chunks, a final chunk per choice with
// finish_reason and stop_reason, a usage chunk with stream_options.include_usage, then [DONE] —
// always, after an error too (sent in-stream as {"error": {...}}). The call is recorded as the body
// the same request without `stream` would have got (logprobs and token ids included).

interface StreamOptions {
  /** The completion on the engine thread, its prompt already prepared. */
  run: CompletionRun;
  request: ChatCompletionRequest;
  promptTokens: number[];
  header: CompletionHeader;
  echo: string;
  headers: Record<string, string>;
  /** Records the call; [DONE] is written after it settles, so an answered call is recorded. */
  record: (output: ChatCompletion, status: "success" | "error" | "cancelled", error?: string) => Promise<void>;
  onDone: () => void;
}

/** How long a stream holds its events before writing them out together. A socket write costs
 *  ~0.1–0.25 ms of CPU here (the response's piping, the syscall, waking the reader), and about as
 *  much again in the client, so the events of the tokens produced within this window leave in one
 *  write. Each choice's first token is written at once (time to first token), and the end of the
 *  stream flushes what is held. Every event is unchanged. The window is 25 ms (40 updates a second,
 *  smooth to a reader) for one or two streams, and grows with more so that all open streams
 *  together make about TIMED_WRITES_PER_SECOND writes (50 ms at 4 streams, 100 ms — the longest —
 *  from 8): when many streams share the engine, the CPU a write costs comes out of its tokens. */
export const SSE_FLUSH_INTERVAL_MS = 25;
const LONGEST_FLUSH_INTERVAL_MS = 100;
const TIMED_WRITES_PER_SECOND = 80;

let openStreams = 0;
const flushInterval = () => Math.min(LONGEST_FLUSH_INTERVAL_MS, Math.max(SSE_FLUSH_INTERVAL_MS, (openStreams * 1000) / TIMED_WRITES_PER_SECOND));

const encoder = new TextEncoder();
const sse = (data: unknown) => `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

export function streamChatCompletion({ run, request, promptTokens: promptTokenIds, header, echo, headers, record, onDone }: StreamOptions): Response {
  const includeUsage = request.stream_options?.include_usage ?? false;
  const continuous = includeUsage && (request.stream_options?.continuous_usage_stats ?? false);
  const promptTokens = promptTokenIds.length;
  const completion = new CompletionAccumulator({ header, echo, request, promptTokens: promptTokenIds });

  const chunk = (choices: ChatCompletionChunk["choices"], index: number, extra: Partial<ChatCompletionChunk> = {}): ChatCompletionChunk => ({
    id: header.id,
    object: "chat.completion.chunk",
    created: header.created,
    model: header.model,
    choices,
    ...extra,
    ...(continuous && { usage: { prompt_tokens: promptTokens, completion_tokens: completion.completionTokens(index), total_tokens: promptTokens + completion.completionTokens(index) } }),
  });

  let clientGone = false;
  const body = new ReadableStream<Uint8Array>({
    async start(rawController) {
      openStreams++;
      // After a disconnect the stream is closed: what is still in flight is dropped, not an error.
      let held = "";
      let timer: ReturnType<typeof setTimeout> | undefined;
      // The role chunks wait for the first token (written at once) instead of taking a write of
      // their own: a socket write costs ~0.1 ms of CPU here.
      let lastWrite = performance.now();
      const flush = () => {
        clearTimeout(timer);
        timer = undefined;
        if (held && !clientGone) rawController.enqueue(encoder.encode(held));
        held = "";
        lastWrite = performance.now();
      };
      const controller = {
        /** Holds an event, writing it (with what is held) now when `urgent` or when nothing was
         *  written for the flush interval, else when that interval since the last write ends. */
        enqueue(event: string, urgent = false) {
          held += event;
          const since = performance.now() - lastWrite;
          const interval = flushInterval();
          if (urgent || since >= interval) flush();
          else timer ??= setTimeout(flush, interval - since);
        },
      };
      let status: "success" | "error" | "cancelled" = "success";
      let failure: string | undefined;
      try {
        for (let index = 0; index < request.n; index++) {
          const first = index === 0 && request.return_token_ids ? { prompt_token_ids: promptTokenIds } : {};
          controller.enqueue(sse(chunk([{ index, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }], index, first)));
          if (echo) {
            controller.enqueue(sse(chunk([{ index, delta: { content: echo }, logprobs: null, finish_reason: null }], index)));
          }
        }
        for await (const event of run.events()) {
          const i = event.index;
          const first = event.kind === "delta" && completion.completionTokens(i) === 0;
          completion.add(event);
          if (event.kind === "finish") {
            controller.enqueue(sse(chunk([{ index: i, delta: {}, logprobs: null, finish_reason: event.finishReason, stop_reason: event.stopReason }], i)));
            continue;
          }
          if (!event.text && event.logprobs.length === 0 && !request.return_token_ids) continue;
          controller.enqueue(
            sse(
              chunk(
                [{
                  index: i,
                  delta: { content: event.text },
                  logprobs: event.logprobs.length > 0 ? { content: event.logprobs } : null,
                  finish_reason: null,
                  ...(request.return_token_ids && { token_ids: event.tokenIds }),
                }],
                i,
              ),
            ),
            first,
          );
        }
        if (run.aborted) status = "cancelled";
        const total = completion.completionTokens();
        if (includeUsage) {
          controller.enqueue(sse({ id: header.id, object: "chat.completion.chunk", created: header.created, model: header.model, choices: [], usage: { prompt_tokens: promptTokens, completion_tokens: total, total_tokens: promptTokens + total } }));
        }
      } catch (error) {
        if (clientGone) {
          status = "cancelled";
          return;
        }
        status = "error";
        failure = (error as Error).message;
        const appError = error instanceof AppError ? error : undefined;
        if (!appError) log.error("chat completion stream failed", { error });
        controller.enqueue(sse({ error: { message: appError ? appError.message : "Internal server error during generation.", type: appError?.code ?? "InternalServerError", param: null, code: appError?.status ?? 500 } }));
      } finally {
        openStreams--;
        onDone();
        await record(completion.body(), status, failure);
        if (!clientGone) {
          controller.enqueue(sse("[DONE]"), true);
          rawController.close();
        } else flush(); // drops what is held, and its timer
      }
    },
    cancel() {
      clientGone = true;
      run.abort(); // the client disconnected: stop generating
    },
  });
  return new Response(body, {
    // No explicit `Connection` header: Node then sends its own with the Keep-Alive timeout hint,
    // which lets clients drop an idle connection before the server does.
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", ...headers },
  });
}
