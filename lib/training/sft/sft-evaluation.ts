// Measuring an SFT job's model on held-out examples: the validation loss (token-weighted mean
// cross-entropy of the trained assistant tokens, as a training batch computes it) and greedy
// replies to their prompts (the messages before the last assistant turn), checked against that
// turn when the job has a checker.
import type { LlamaModel } from "@/lib/engine/model/llama-model";
import { conversationRows } from "@/lib/engine/train/packed-batch";
import { greedyGenerate } from "@/lib/engine/train/greedy-generate";
import { batchLoss } from "@/lib/engine/train/train-step";
import { encodePrompt, messageText, renderChat, type ChatFormat } from "@/lib/engine/tokenizer/chat-template";
import type { EncodedChat } from "@/lib/engine/tokenizer/chatml";
import type { TrainingVocabulary } from "@/lib/engine/tokenizer/training-vocabulary";
import { isChoice } from "../trajectories/schemas";
import type { Scorer } from "../checkers/checker-config";
import type { SampledReply } from "./degeneration";
import type { SftExample } from "./tokenize-sft-example";

/** Rows per forward pass when measuring loss (memory, not results, depends on it). */
const ROWS_PER_PASS = 16;
/** The longest reply generated for checks and samples. */
export const MAX_REPLY_TOKENS = 48;

/** `padId` fills the rows after their last token (TrainingVocabulary.padId). */
export function validationLoss(model: LlamaModel, padId: number, rows: readonly EncodedChat[]): number {
  let [sum, tokens] = [0, 0];
  for (let i = 0; i < rows.length; i += ROWS_PER_PASS) {
    const batch = conversationRows(rows.slice(i, i + ROWS_PER_PASS), padId, "assistant");
    const n = batch.weights.reduce((a, b) => a + b, 0);
    if (n > 0) [sum, tokens] = [sum + batchLoss(model, batch) * n, tokens + n];
  }
  return tokens > 0 ? sum / tokens : NaN;
}

export interface HeldOutPrompt {
  /** The prompt's ids, rendered as serving renders it (with the generation prompt). */
  ids: number[];
  /** The last user message's text, to show beside the replies. */
  question: string;
  /** The example's last assistant turn: what a checker compares the reply with. */
  expected: string;
}

/** The example's conversation up to its last assistant turn, as a prompt. */
export function heldOutPrompt(format: ChatFormat, example: SftExample): HeldOutPrompt {
  const messages = example.messages.map((m) => (isChoice(m) ? { ...m.message, role: "assistant" } : m));
  const before = messages.slice(0, -1);
  const lastUser = before.findLast((m) => m.role === "user");
  const text = (m: (typeof messages)[number] | undefined, i: number) => (m ? messageText(m.content as never, i) : "");
  return {
    ids: encodePrompt(format, renderChat(format, { messages: before, tools: example.tools, chat_template_kwargs: example.chat_template_kwargs }, { addGenerationPrompt: true })),
    question: text(lastUser, before.lastIndexOf(lastUser!)),
    expected: text(messages.at(-1), messages.length - 1),
  };
}

/** Greedy replies, each limited by MAX_REPLY_TOKENS and the model's context, ended by any of the
 *  vocabulary's end-of-turn ids; past `deadline` (Date.now()), GenerationDeadlinePassed. */
export function greedyReplies(model: LlamaModel, vocabulary: TrainingVocabulary, prompts: readonly HeldOutPrompt[], deadline?: number): SampledReply[] {
  const fitting = prompts.map((p) => p.ids.slice(-(model.config.contextLength - 1)));
  const generated = greedyGenerate(model, fitting, { maxNewTokens: MAX_REPLY_TOKENS, stopId: vocabulary.stopIds, deadline });
  return generated.map((g) => ({ tokens: g.tokens, bytes: vocabulary.decodeBytes(g.tokens), ended: g.stopped }));
}

/** The reply as text; a NUL (which PostgreSQL cannot store in the job's samples) shows as U+FFFD. */
export const replyText = (reply: SampledReply): string => new TextDecoder().decode(reply.bytes).replaceAll("\u0000", "\uFFFD");

/** Share of replies that ended their turn and pass the checker. */
export function accuracy(score: Scorer, prompts: readonly HeldOutPrompt[], replies: readonly SampledReply[]): number {
  if (replies.length === 0) return NaN;
  return replies.filter((r, i) => r.ended && score(replyText(r), prompts[i].expected) === 1).length / replies.length;
}
