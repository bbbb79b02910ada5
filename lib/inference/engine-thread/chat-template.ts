import { badRequest } from "@/lib/contract/errors";
import { ChatTemplateError, messageText as contentText, renderChat, type ChatFormat } from "@/lib/engine/tokenizer/chat-template";
import { servedTemplateKwargs } from "@/lib/engine/tokenizer/served-template-kwargs";
import type { ChatCompletionRequest, ChatMessage } from "@/lib/inference/chat-request";

// A request's messages → prompt text through the renderer training shares
// (lib/engine/tokenizer/chat-template.ts), with what only a request brings: its own chat_template,
// chat_template_kwargs and documents, and continue_final_message. A conversation that cannot be
// rendered is the request's 400.

/** A message's content as text (text parts joined by newlines; this model takes text only). */
export function messageText(message: ChatMessage, index: number): string {
  return refusingBadInput(() => contentText(message.content, index));
}

export function renderChatPrompt(request: ChatCompletionRequest, format: ChatFormat): string {
  const conversation = { ...request, chat_template_kwargs: servedTemplateKwargs(request) };
  const text = refusingBadInput(() => renderChat(format, conversation, { addGenerationPrompt: request.add_generation_prompt }));
  return request.continue_final_message ? openFinalMessage(text, messageText(request.messages.at(-1)!, request.messages.length - 1)) : text;
}

function refusingBadInput<T>(render: () => T): T {
  try {
    return render();
  } catch (error) {
    throw error instanceof ChatTemplateError ? badRequest(error.message) : error;
  }
}

/** Cuts the rendering right after the final message's content, so the model continues it
 *  (vLLM's prefill: the template's end-of-turn after that message is dropped). */
function openFinalMessage(text: string, finalContent: string): string {
  const at = finalContent ? text.lastIndexOf(finalContent) : -1;
  if (at < 0) throw badRequest("continue_final_message: the final message's content does not appear in the rendered prompt.");
  return text.slice(0, at + finalContent.length);
}
