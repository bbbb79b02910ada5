import { Template } from "@huggingface/jinja";
import { renderTemplate } from "./render-template";

// A conversation → prompt text → token ids through a model's Jinja chat template: the one renderer
// of serving (the engine thread's prompts) and training (trajectories, SFT examples), so a model
// trains on exactly the context it was served. Messages reach the template as vLLM hands them to
// one: text parts joined by newlines, tool-call arguments parsed from their JSON, null fields
// absent. The rendered text is tokenized with special-token texts parsed, as llama.cpp and vLLM
// tokenize a rendered prompt. @huggingface/jinja is a sandboxed interpreter, so a request may
// bring its own template; it renders within bounds (render-template.ts).

/** What a model's prompts are rendered and tokenized with. */
export interface ChatFormat {
  /** The model's Jinja chat template (its GGUF's tokenizer.chat_template). */
  template: string;
  /** The BOS and EOS tokens (templates see their texts as bos_token and eos_token); null if the
   *  model has none. EOS ends an assistant's turn. */
  bos: { text: string; id: number } | null;
  eos: { text: string; id: number } | null;
  /** Text → ids, special-token texts becoming their ids. */
  tokenize(text: string): number[];
  /** The ids that end an assistant's turn when the template writes one: EOS, and e.g. Llama 3's
   *  <|eot_id|> where EOS is <|end_of_text|>. Just EOS when absent. */
  endOfTurn?: readonly number[];
}

type ContentPart = { type: string; text?: string | null };

/** A chat message as the OpenAI API carries it: in a request, a trajectory or an SFT example. */
export interface WireMessage {
  role: string;
  content?: string | readonly ContentPart[] | null;
  tool_calls?: readonly { function: { name: string; arguments?: string | null } }[] | null;
  [field: string]: unknown;
}

export interface Conversation {
  messages: readonly WireMessage[];
  tools?: readonly unknown[] | null;
  /** More template variables (e.g. Qwen3's enable_thinking); a `chat_template` among them is the
   *  template to render with instead of the model's. */
  chat_template_kwargs?: Readonly<Record<string, unknown>> | null;
}

export interface RenderOptions {
  /** End with the template's opening of an assistant turn. */
  addGenerationPrompt: boolean;
}

/** Where in a conversation's messages a problem is: a message, and maybe one of its content parts. */
export interface MessageLocation {
  message: number;
  part?: number;
}

/** "messages[1].content[0]", or with another name for the list ("messages_and_choices[1]..."). */
export const messagePath = (at: MessageLocation, list = "messages"): string => `${list}[${at.message}]${at.part === undefined ? "" : `.content[${at.part}]`}`;

/** The conversation cannot be rendered: `problem`, at a message when one is at fault. */
export class ChatTemplateError extends Error {
  constructor(readonly problem: string, readonly at?: MessageLocation) {
    super(at ? `${messagePath(at)}: ${problem}` : problem);
    this.name = "ChatTemplateError";
  }
}

/** A message's content as text: text parts joined by newlines (these models read text only). */
export function messageText(content: WireMessage["content"], index: number): string {
  if (content == null) return "";
  if (typeof content === "string") return content;
  return content
    .map((part, p) => {
      if (part.type !== "text" || typeof part.text !== "string") {
        throw new ChatTemplateError(`a content part of type '${part.type}': this model takes text only`, { message: index, part: p });
      }
      return part.text;
    })
    .join("\n");
}

export function renderChat(format: ChatFormat, conversation: Conversation, options: RenderOptions): string {
  const kwargs = conversation.chat_template_kwargs ?? {};
  const template = compile(kwargs.chat_template == null ? format.template : String(kwargs.chat_template));
  const tools = conversation.tools?.length ? conversation.tools : undefined;
  try {
    return renderTemplate(template, {
      ...kwargs,
      messages: conversation.messages.map(templateMessage),
      tools,
      add_generation_prompt: options.addGenerationPrompt,
      bos_token: format.bos?.text ?? "",
      eos_token: format.eos?.text ?? "",
    });
  } catch (error) {
    if (error instanceof ChatTemplateError) throw error;
    throw new ChatTemplateError(`The chat template failed to render these messages: ${(error as Error).message}`);
  }
}

/** Rendered text → the prompt's ids; `addSpecialTokens` puts BOS first (vLLM's add_special_tokens). */
export function encodePrompt(format: ChatFormat, text: string, addSpecialTokens = false): number[] {
  const ids = format.tokenize(text);
  if (addSpecialTokens && format.bos && ids[0] !== format.bos.id) ids.unshift(format.bos.id);
  return ids;
}

function templateMessage(message: WireMessage, index: number): Record<string, unknown> {
  const out: Record<string, unknown> = withoutNulls(message);
  out.content = messageText(message.content, index);
  if (message.tool_calls) {
    out.tool_calls = message.tool_calls.map((call) => {
      const fn = withoutNulls(call.function);
      return { ...withoutNulls(call), function: { ...fn, arguments: parsedArguments(call.function.arguments) } };
    });
  }
  return out;
}

/** Templates expect a tool call's arguments as an object; empty means none. A sampled call's
 *  arguments may be invalid JSON: the template then shows the text the model wrote. */
function parsedArguments(text: string | null | undefined): unknown {
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Null means absent (a template's `is defined` tells the two apart). */
function withoutNulls<T extends object>(value: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
}

// Parsed templates by source: a model's template is parsed once, not per conversation.
const parsed = new Map<string, Template>();
const MAX_CACHED_TEMPLATES = 64;

function compile(source: string): Template {
  let template = parsed.get(source);
  if (template) return template;
  try {
    template = new Template(source);
  } catch (error) {
    throw new ChatTemplateError(`The chat template does not parse: ${(error as Error).message}`);
  }
  if (parsed.size >= MAX_CACHED_TEMPLATES) parsed.delete(parsed.keys().next().value!);
  parsed.set(source, template);
  return template;
}
