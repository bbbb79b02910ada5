import { AppError } from "@/lib/contract/errors";
import type { ChatCompletionRequest } from "@/lib/inference/chat-request";
import type { Completion } from "@/lib/inference/completion";
import { ChunkMerger, type StreamedChunk } from "@/lib/inference/merge-chunks";
import type { UpstreamModel } from "@/lib/inference/resolve-model";
import { ensureUpstreamAdapter, forgetUpstreamAdapter } from "@/lib/inference/upstream-adapters";
import { upstreamHeaders, upstreamHost, upstreamMessage } from "@/lib/inference/upstream-http";

// A chat completion passed to an OpenAI-compatible upstream (vLLM, llama.cpp server, another
// Anneal): the validated request goes out under the upstream's model name (a checkpoint's: its
// adapter's name on vLLM), the answer comes back under ours — streamed chunk by chunk — and the call
// is recorded from the upstream's usage.

const UPSTREAM_TIMEOUT_MS = 10 * 60_000;

function upstreamBody(request: ChatCompletionRequest, model: string): Record<string, unknown> {
  const { engine_xargs, ...rest } = request;
  return {
    ...rest,
    model,
    // vLLM's name for Anneal's engine_xargs.
    ...(engine_xargs && { vllm_xargs: engine_xargs }),
    // Usage is always requested, for recording; the client gets the usage chunk only if it asked.
    ...(request.stream && { stream_options: { ...request.stream_options, include_usage: true } }),
  };
}

/** The request, to the base's model or the checkpoint's adapter (loaded first when this process has
 *  not); an adapter the upstream no longer has (404: vLLM restarted) is loaded again, once. */
async function send(completion: Completion, resolved: UpstreamModel): Promise<Response> {
  const { base, lora } = resolved;
  if (!lora) return post(completion, resolved, base.upstreamModel);
  await ensureUpstreamAdapter(base, lora);
  const response = await post(completion, resolved, lora.name);
  if (response.status !== 404) return response;
  await response.body?.cancel();
  forgetUpstreamAdapter(base, lora.name);
  await ensureUpstreamAdapter(base, lora);
  return post(completion, resolved, lora.name);
}

async function post(completion: Completion, resolved: UpstreamModel, model: string): Promise<Response> {
  const { base } = resolved;
  const signal = AbortSignal.any([completion.ctx.signal, AbortSignal.timeout(UPSTREAM_TIMEOUT_MS)]);
  try {
    return await fetch(`${base.baseUrl}/chat/completions`, {
      method: "POST",
      headers: upstreamHeaders(base, completion.ctx.requestId),
      body: JSON.stringify(upstreamBody(completion.ctx.request, model)),
      signal,
    });
  } catch (error) {
    throw new AppError("unavailable", `Upstream for '${resolved.servedName}' (${upstreamHost(base)}) is unreachable: ${(error as Error).message}`);
  }
}

/** An upstream error, with the upstream's status and message. */
async function upstreamError(response: Response, name: string): Promise<AppError> {
  const message = upstreamMessage(await response.text());
  const code = response.status === 404 ? "not_found" : response.status === 429 ? "rate_limited" : response.status < 500 ? "bad_request" : "unavailable";
  return new AppError(code, `Upstream for '${name}' answered ${response.status}: ${message}`, response.headers.get("retry-after") ? { "Retry-After": response.headers.get("retry-after")! } : {});
}

interface Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
}

export async function completeOnUpstream(completion: Completion, resolved: UpstreamModel): Promise<Response> {
  const request = completion.ctx.request;
  const response = await send(completion, resolved);
  if (!response.ok) {
    const error = await upstreamError(response, resolved.servedName);
    await completion.record({ promptTokens: 0, completionTokens: 0, status: "error", error: error.message });
    throw error;
  }
  if (!request.stream) {
    const body = (await response.json()) as { model?: string; usage?: Usage };
    body.model = resolved.servedName;
    await completion.record({ output: body, promptTokens: body.usage?.prompt_tokens ?? 0, completionTokens: body.usage?.completion_tokens ?? 0, status: "success" });
    return Response.json(body, { headers: completion.callHeaders });
  }
  return new Response(relayStream(response.body!, completion, resolved.servedName), {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", ...completion.callHeaders },
  });
}

/** Relays SSE events, renaming the model, dropping the forced usage chunk when not asked for,
 *  and recording the call as the chunks merged into one chat.completion body (before [DONE]). */
function relayStream(upstream: ReadableStream<Uint8Array>, completion: Completion, servedName: string): ReadableStream<Uint8Array> {
  const clientWantsUsage = completion.ctx.request.stream_options?.include_usage ?? false;
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const merged = new ChunkMerger();
  let pending = "";
  let failed: string | undefined;

  let sawDone = false;
  const relayEvent = (event: string): string | null => {
    const data = event.startsWith("data:") ? event.slice(5).trim() : "";
    if (data === "[DONE]") {
      sawDone = true; // written once the call is recorded
      return null;
    }
    if (!data) return event;
    let chunk: StreamedChunk & { error?: { message?: string } };
    try {
      chunk = JSON.parse(data);
    } catch {
      return event;
    }
    if (chunk.error) failed = chunk.error.message ?? "upstream error";
    merged.add(chunk);
    if (chunk.choices?.length === 0 && chunk.usage && !clientWantsUsage) return null;
    if (chunk.model !== undefined) chunk.model = servedName;
    return `data: ${JSON.stringify(chunk)}`;
  };

  const reader = upstream.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read().catch((error: unknown) => {
        failed = (error as Error).message;
        return { done: true as const, value: undefined };
      });
      if (done) {
        if (pending.trim()) {
          const last = relayEvent(pending.trim());
          if (last) controller.enqueue(encoder.encode(`${last}\n\n`));
        }
        const status = failed ? "error" : completion.ctx.signal.aborted ? "cancelled" : "success";
        await completion.record({
          output: merged.body(servedName),
          promptTokens: merged.reportedUsage.prompt_tokens ?? 0,
          completionTokens: merged.reportedUsage.completion_tokens ?? 0,
          status,
          error: failed,
        });
        if (sawDone) controller.enqueue(encoder.encode("data: [DONE]\n\n"));
        controller.close();
        return;
      }
      pending += decoder.decode(value, { stream: true });
      const events = pending.split(/\r?\n\r?\n/);
      pending = events.pop() ?? "";
      for (const event of events) {
        const relayed = relayEvent(event.trim());
        if (relayed) controller.enqueue(encoder.encode(`${relayed}\n\n`));
      }
    },
    cancel(reason) {
      void reader.cancel(reason); // the client went away: so does the upstream request
    },
  });
}
