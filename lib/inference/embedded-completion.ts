import { badRequest } from "@/lib/contract/errors";
import type { ChatCompletionRequest } from "@/lib/inference/chat-request";
import type { ChatCompletion } from "@/lib/inference/chat-response";
import { collectChoices } from "@/lib/inference/collect-choices";
import type { Completion } from "@/lib/inference/completion";
import { admit, embeddedEngine } from "@/lib/inference/engine";
import type { EmbeddedModel } from "@/lib/inference/resolve-model";
import { streamChatCompletion } from "@/lib/inference/stream-chat-completion";

// A chat completion on the embedded engine: the engine thread renders and tokenizes the prompt and
// generates the n choices; this side answers with JSON or an SSE stream and records the call.

export const MAX_LOGPROBS = 20;
export const SYSTEM_FINGERPRINT = "anneal-0.1.0";

/** Parameters the embedded engine cannot honour are refused when not at their default. */
function refuseUnsupported(r: ChatCompletionRequest): void {
  if (r.priority !== 0) throw badRequest(`Got priority ${r.priority} but Priority scheduling is not enabled.`);
  if (r.use_beam_search) throw badRequest("use_beam_search is not supported by the embedded engine.");
  if (r.length_penalty !== 1) throw badRequest("length_penalty only applies to beam search, which the embedded engine does not support.");
  for (const [name, value] of [["sample", r.top_logprobs], ["prompt", r.prompt_logprobs ?? 0]] as const) {
    if (value > MAX_LOGPROBS || value === -1) {
      throw badRequest(`Requested ${name} logprobs of ${value === -1 ? "all" : value}, which is greater than max allowed: ${MAX_LOGPROBS}`);
    }
  }
}

export async function completeOnEmbeddedEngine(completion: Completion, resolved: EmbeddedModel): Promise<ChatCompletion | Response> {
  const { request, signal } = completion.ctx;
  refuseUnsupported(request);
  const release = admit(resolved.gguf);
  let streaming = false;
  let promptTokens = 0;
  try {
    const run = embeddedEngine().start(
      { gguf: resolved.gguf, adapter: resolved.adapter, servedName: resolved.servedName, trainable: resolved.base.trainable, request },
      signal,
    );
    const prepared = await run.prepared;
    promptTokens = prepared.promptTokens.length;
    const header = { id: completion.id, created: completion.created, model: resolved.servedName, systemFingerprint: SYSTEM_FINGERPRINT };

    if (request.stream) {
      streaming = true;
      return streamChatCompletion({
        run,
        request,
        promptTokens: prepared.promptTokens,
        header,
        echo: prepared.echo,
        headers: completion.callHeaders,
        record: (output, status, error) => completion.record({ output, promptTokens, completionTokens: output.usage.completion_tokens, status, error }),
        onDone: release,
      });
    }
    const body = {
      ...(await collectChoices(run.events(), { header, echo: prepared.echo, request, promptTokens: prepared.promptTokens })),
      prompt_logprobs: prepared.promptLogprobs ?? null,
    };
    await completion.record({ output: body, promptTokens, completionTokens: body.usage.completion_tokens, status: signal.aborted ? "cancelled" : "success" });
    return Response.json(body, { headers: completion.callHeaders });
  } catch (error) {
    await completion.record({ promptTokens, completionTokens: 0, status: "error", error: (error as Error).message });
    throw error;
  } finally {
    if (!streaming) release();
  }
}
