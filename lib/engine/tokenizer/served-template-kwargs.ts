// Apart from lib/inference/chat-request.ts so that the engine thread, which renders prompts, does not
// load the web side's request schemas (engine-thread/thread-boundary.test.ts).

/** The chat_template_kwargs that render a request's prompt on their own: its own `chat_template` and
 *  `documents` folded in (they reach the template the same way), so a trajectory or SFT example built
 *  from a served call trains on the prompt that call was served. */
export function servedTemplateKwargs(request: { chat_template?: string; chat_template_kwargs?: Record<string, unknown>; documents?: unknown }): Record<string, unknown> {
  return {
    ...request.chat_template_kwargs,
    ...(request.chat_template !== undefined && { chat_template: request.chat_template }),
    ...(request.documents !== undefined && { documents: request.documents }),
  };
}
