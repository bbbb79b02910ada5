import { Template } from "@huggingface/jinja";
import { CHATML_TEMPLATE } from "@/lib/engine/tokenizer/chatml";
import { badRequest } from "@/lib/http/errors";
import type { ChatCompletionRequest, ChatMessage } from "@/lib/inference/chat-request";

// Messages → prompt text through a Jinja chat template: the request's `chat_template`, else the
// model's own (GGUF tokenizer.chat_template), else ChatML. @huggingface/jinja is a sandboxed
// interpreter (no host access), which is why a request may bring its own template.

const MAX_PROMPT_CHARACTERS = 4 * 1024 * 1024;

/** A message's content as text: parts of type text joined by newlines (text models only). */
export function messageText(message: ChatMessage, index: number): string {
  const content = message.content;
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return content
    .map((part, p) => {
      if (part.type !== "text" || typeof part.text !== "string") {
        throw badRequest(`messages[${index}].content[${p}] is a '${part.type}' part; this model takes text only.`);
      }
      return part.text;
    })
    .join("\n");
}

export interface TemplateTokens {
  bos: string;
  eos: string;
}

// Parsed templates by source: a model's template is parsed once, not per request.
const parsed = new Map<string, Template>();
const MAX_CACHED_TEMPLATES = 64;

function compile(source: string): Template {
  let template = parsed.get(source);
  if (template) return template;
  try {
    template = new Template(source);
  } catch (error) {
    throw badRequest(`The chat template does not parse: ${(error as Error).message}`);
  }
  if (parsed.size >= MAX_CACHED_TEMPLATES) parsed.delete(parsed.keys().next().value!);
  parsed.set(source, template);
  return template;
}

export function renderChatPrompt(request: ChatCompletionRequest, modelTemplate: string | undefined, tokens: TemplateTokens): string {
  const template = compile(String(request.chat_template ?? request.chat_template_kwargs.chat_template ?? modelTemplate ?? CHATML_TEMPLATE));
  const messages = request.messages.map((m, i) => ({ ...m, content: messageText(m, i) }));
  let text: string;
  try {
    text = template.render({
      ...request.chat_template_kwargs,
      messages,
      tools: request.tools,
      documents: request.documents,
      add_generation_prompt: request.add_generation_prompt,
      bos_token: tokens.bos,
      eos_token: tokens.eos,
    });
  } catch (error) {
    throw badRequest(`The chat template failed to render these messages: ${(error as Error).message}`);
  }
  if (text.length > MAX_PROMPT_CHARACTERS) throw badRequest("The rendered prompt is longer than 4 MiB.");
  return request.continue_final_message ? openFinalMessage(text, messages.at(-1)!.content) : text;
}

/** Cuts the rendering right after the final message's content, so the model continues it
 *  (vLLM's prefill: the template's end-of-turn after that message is dropped). */
function openFinalMessage(text: string, finalContent: string): string {
  const at = finalContent ? text.lastIndexOf(finalContent) : -1;
  if (at < 0) throw badRequest("continue_final_message: the final message's content does not appear in the rendered prompt.");
  return text.slice(0, at + finalContent.length);
}
