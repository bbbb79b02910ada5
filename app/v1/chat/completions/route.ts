// POST /v1/chat/completions — OpenAI/vLLM-compatible chat completion (also at the trailing-slash path)
import { handle } from "@/lib/http/handle";
import { createChatCompletion } from "@/lib/inference/create-chat-completion";
import { createChatCompletionOp } from "@/lib/inference/operations";

export const POST = handle(createChatCompletionOp, ({ principal, body, req, requestId }) =>
  createChatCompletion({
    principal,
    request: body,
    projectRef: req.headers.get("svc-project") ?? undefined,
    requestId,
    signal: req.signal,
  }),
);
