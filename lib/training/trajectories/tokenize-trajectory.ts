// One history (messages_and_choices + tools) → the token ids the model trains on, which of them are
// trainable (a Choice's tokens, and only those), and the sampler's log π_old for each. Context
// messages are rendered with the model's ChatML template; a Choice is the generation prompt
// "<|im_start|>assistant\n", the sampled tokens as they were sampled, then the closing tokens.
import { encodeChat, IM_END } from "@/lib/engine/tokenizer/chatml";
import type { Tokenizer } from "@/lib/engine/tokenizer/tokenizer";
import { TrajectoryError, type TrajectoryLocation } from "../trajectory-error";
import { assistantText, chatMessage, placeTools } from "./chat-template";
import { lookupChoiceToken } from "./lookup-choice-token";
import { isChoice, type Choice, type History, type Trajectory } from "./schemas";

export interface TokenizedHistory {
  ids: number[];
  /** 1 where the token is a Choice's sampled (or, without logprobs, tokenized) token. */
  trainable: Uint8Array;
  /** The sampler's log π_old of each token; NaN where unknown (context, or no logprobs: on-policy). */
  oldLogprobs: Float32Array;
}

/**
 * Tokenizes a history, cut after its last trainable token (later tokens cannot change any trained
 * position's log-prob, attention being causal). A history longer than `maxTokens` is an error.
 */
export function tokenizeHistory(tokenizer: Tokenizer, history: History, location: TrajectoryLocation, maxTokens: number): TokenizedHistory {
  const imEnd = tokenizer.tokenId(IM_END)!;
  const ids: number[] = [];
  const trainable: number[] = [];
  const old: number[] = [];
  const push = (part: readonly number[], train: boolean, logprobs?: readonly number[]) => {
    part.forEach((id, k) => {
      ids.push(id);
      trainable.push(train ? 1 : 0);
      old.push(logprobs?.[k] ?? NaN);
    });
  };
  const pushContext = (m: Parameters<typeof encodeChat>[1][number]) => push(encodeChat(tokenizer, [m]).ids, false);

  const items = history.messages_and_choices;
  const first = items[0] && !isChoice(items[0]) ? chatMessage(items[0]) : undefined;
  const { prefix, skip: start } = placeTools(history.tools, first);
  prefix.forEach(pushContext);

  items.slice(start).forEach((item, offset) => {
    if (!isChoice(item)) return pushContext(chatMessage(item));
    const { tokens, logprobs } = choiceTokens(tokenizer, item, location, start + offset);
    push(encodeChat(tokenizer, [], { addGenerationPrompt: true }).ids, false);
    push(tokens, true, logprobs);
    // The template closes the turn; a sampler that emitted <|im_end|> already holds it.
    push(tokens.at(-1) === imEnd ? [] : [imEnd], false);
    push(tokenizer.encode("\n"), false);
  });

  const end = trainable.lastIndexOf(1) + 1;
  if (end > maxTokens) {
    throw new TrajectoryError(location, "", `the conversation is ${end} tokens long, more than the model's context of ${maxTokens}`);
  }
  return { ids: ids.slice(0, end), trainable: Uint8Array.from(trainable.slice(0, end)), oldLogprobs: Float32Array.from(old.slice(0, end)) };
}

/** The main history and every additional history of a trajectory (history k at location k). */
export function tokenizeTrajectory(tokenizer: Tokenizer, trajectory: Trajectory, location: TrajectoryLocation, maxTokens: number): TokenizedHistory[] {
  return [trajectory, ...trajectory.additional_histories].map((h, history) => tokenizeHistory(tokenizer, h, { ...location, history }, maxTokens));
}

function choiceTokens(tokenizer: Tokenizer, choice: Choice, location: TrajectoryLocation, index: number): { tokens: number[]; logprobs?: number[] } {
  const field = choice.logprobs?.content?.length ? "content" : choice.logprobs?.refusal?.length ? "refusal" : null;
  if (!field) {
    // No sampler record: train on the message as the template would write it, with ratio 1.
    const { content, refusal, tool_calls } = choice.message;
    return { tokens: tokenizer.encode(assistantText(content ?? refusal, tool_calls)) };
  }
  const entries = choice.logprobs![field]!;
  const tokens = entries.map((entry, k) => {
    const id = lookupChoiceToken(tokenizer, entry);
    if (id === undefined) {
      throw new TrajectoryError(location, `messages_and_choices[${index}].logprobs.${field}[${k}]`,
        `token ${JSON.stringify(entry.token)} is not in the model's vocabulary (${tokenizer.vocabSize} tokens)`);
    }
    return id;
  });
  return { tokens, logprobs: entries.map((e) => e.logprob ?? NaN) };
}
