// ChatML, the chat format of Anneal's models: each message is
//   <|im_start|>{role}\n{content}<|im_end|>\n
// and a generation prompt is "<|im_start|>assistant\n". The control tokens are single ids; message
// text is encoded with special parsing off, so a user cannot forge them, and otherwise the ids equal
// llama.cpp's tokenization of the rendered text with special tokens parsed. Pretraining's plain
// conversations are written here; the models' chat template (chatml-template.ts), which serving
// and fine-tuning render through, writes them the same.

import type { Tokenizer } from "./tokenizer";

export const END_OF_TEXT = "<|endoftext|>";
export const IM_START = "<|im_start|>";
export const IM_END = "<|im_end|>";
export const CHATML_SPECIALS = [END_OF_TEXT, IM_START, IM_END];

export interface ChatMessage {
  role: string;
  content: string;
}

export interface ChatOptions {
  /** Append "<|im_start|>assistant\n" so the model writes the next assistant message. */
  addGenerationPrompt?: boolean;
}

export function renderChat(messages: readonly ChatMessage[], options: ChatOptions = {}): string {
  const text = messages.map((m) => `${IM_START}${m.role}\n${m.content}${IM_END}\n`).join("");
  return options.addGenerationPrompt ? `${text}${IM_START}assistant\n` : text;
}

export interface EncodedChat {
  ids: number[];
  /** 1 for the tokens an assistant wrote (its content and closing <|im_end|>): the training targets. */
  assistantMask: Uint8Array;
}

export function encodeChat(tokenizer: Tokenizer, messages: readonly ChatMessage[], options: ChatOptions = {}): EncodedChat {
  const imStart = requireSpecial(tokenizer, IM_START);
  const imEnd = requireSpecial(tokenizer, IM_END);
  const newline = tokenizer.encode("\n");
  const ids: number[] = [];
  const mask: number[] = [];
  const push = (part: number[], target: boolean) => {
    ids.push(...part);
    mask.push(...part.map(() => (target ? 1 : 0)));
  };
  for (const m of messages) {
    const header = tokenizer.encode(`${m.role}\n`);
    const body = tokenizer.encode(`${m.role}\n${m.content}`);
    // Role and content are one text to llama.cpp, so a token may straddle them; the content starts
    // where the encodings diverge.
    let contentStart = 0;
    while (contentStart < header.length && header[contentStart] === body[contentStart]) contentStart++;
    const isAssistant = m.role === "assistant";
    push([imStart, ...body.slice(0, contentStart)], false);
    push([...body.slice(contentStart), imEnd], isAssistant);
    push(newline, false);
  }
  if (options.addGenerationPrompt) push([imStart, ...tokenizer.encode("assistant\n")], false);
  return { ids, assistantMask: Uint8Array.from(mask) };
}

function requireSpecial(tokenizer: Tokenizer, text: string): number {
  const id = tokenizer.tokenId(text);
  if (id === undefined || !tokenizer.isSpecial(id)) throw new Error(`tokenizer has no special token ${text}`);
  return id;
}
