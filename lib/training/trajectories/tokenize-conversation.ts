// A conversation → the rows of token ids a model trains on, rendered by the renderer serving uses
// (lib/engine/tokenizer/chat-template.ts), so each trained assistant turn comes after exactly the
// prompt a served completion of that turn saw: the messages before it rendered with the
// generation prompt and tokenized as served. The turn's own tokens follow, as sampled when the
// sampler's tokens are known, else as the template writes that message.
//
// Turns share a row while each one's served prompt begins with the row so far (its earlier prompt
// and turns), which costs one forward pass for the whole conversation. A served prompt re-renders
// the earlier turns from their text, so when that text tokenizes differently from what was sampled
// (a sampled token split, a stop string the text omits) or the template rewrites history, the turn
// starts a row of its own: a turn is never trained on a context its completion did not see.
import { ChatTemplateError, encodePrompt, renderChat, type ChatFormat, type Conversation } from "@/lib/engine/tokenizer/chat-template";

export interface TrainingRow {
  ids: number[];
  /** 1 where the token is a trained turn's own. */
  trainable: Uint8Array;
  /** The sampler's log π_old of each token; NaN where unknown (context, or no logprobs: on-policy). */
  oldLogprobs: Float32Array;
}

export interface TrainedTurn {
  /** The assistant message trained: its index in the conversation's messages. */
  index: number;
  /** Its tokens as sampled, with the sampler's log-probabilities (NaN where unknown). */
  sampled?: { ids: readonly number[]; logprobs: readonly number[] };
  /** Without sampled tokens: whether the turn ended, so its end-of-turn token is trained too
   *  (false for a reply cut at its length limit). */
  ended?: boolean;
}

/** One row per run of turns that share a context (usually one row); each ends with a turn. */
export function tokenizeConversation(format: ChatFormat, conversation: Conversation, turns: readonly TrainedTurn[]): TrainingRow[] {
  const rows: TrainingRow[] = [];
  let ids: number[] = [];
  let trainable: number[] = [];
  let old: number[] = [];
  const endRow = () => {
    if (ids.length > 0) rows.push({ ids, trainable: Uint8Array.from(trainable), oldLogprobs: Float32Array.from(old) });
    [ids, trainable, old] = [[], [], []];
  };
  const push = (part: readonly number[], train: boolean, logprobs: readonly number[] = []) => {
    part.forEach((id, k) => {
      ids.push(id);
      trainable.push(train ? 1 : 0);
      old.push(logprobs[k] ?? NaN);
    });
  };

  for (const turn of turns) {
    const before = { ...conversation, messages: conversation.messages.slice(0, turn.index) };
    const promptText = renderChat(format, before, { addGenerationPrompt: true });
    const prompt = encodePrompt(format, promptText);
    if (!startsWith(prompt, ids)) endRow();
    push(prompt.slice(ids.length), false);
    if (turn.sampled) push(turn.sampled.ids, true, turn.sampled.logprobs);
    else push(renderedTurn(format, conversation, turn, promptText), true);
  }
  endRow();
  return rows;
}

/** The turn as the template writes its message after the generation prompt, through its end of turn. */
function renderedTurn(format: ChatFormat, conversation: Conversation, turn: TrainedTurn, promptText: string): number[] {
  const through = { ...conversation, messages: conversation.messages.slice(0, turn.index + 1) };
  const text = renderChat(format, through, { addGenerationPrompt: false });
  if (!text.startsWith(promptText)) {
    throw new ChatTemplateError("the chat template does not write this assistant message after its generation prompt, so there is no reply to train", { message: turn.index });
  }
  const ids = format.tokenize(text.slice(promptText.length));
  const stops = format.endOfTurn ?? (format.eos ? [format.eos.id] : []);
  const end = ids.findIndex((id) => stops.includes(id));
  if (end < 0) return ids;
  return ids.slice(0, turn.ended === false ? end : end + 1);
}

const startsWith = (ids: readonly number[], prefix: readonly number[]): boolean => prefix.length <= ids.length && prefix.every((id, i) => ids[i] === id);
