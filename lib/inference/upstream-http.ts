import type { UpstreamBaseModel } from "@/lib/inference/base-models";

// What every call to an upstream server shares: its key, and reading its error bodies (OpenAI's
// `{"error": {"message"}}`, vLLM's older `{"object": "error", "message"}`, FastAPI's `{"detail"}`).

export function upstreamHeaders(base: UpstreamBaseModel, requestId?: string): Record<string, string> {
  return {
    "content-type": "application/json",
    ...(requestId && { "x-request-id": requestId }),
    ...(base.apiKey && { authorization: `Bearer ${base.apiKey}` }),
  };
}

/** The message of an upstream's error body, else its text (cut short). */
export function upstreamMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: string }; detail?: unknown; message?: string };
    return body.error?.message ?? (typeof body.detail === "string" ? body.detail : undefined) ?? body.message ?? text.slice(0, 2000);
  } catch {
    return text.slice(0, 2000); // not JSON
  }
}

/** host:port of an upstream, for messages (never its key or path). */
export const upstreamHost = (base: UpstreamBaseModel): string => new URL(base.baseUrl).host;
