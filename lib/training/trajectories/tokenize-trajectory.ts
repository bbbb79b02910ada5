// One history (messages_and_choices, tools, chat_template_kwargs) → the rows of token ids the model trains on, which of
// them are trainable (a Choice's tokens, and only those), and the sampler's log π_old for each.
// Rendered as serving renders (tokenize-conversation.ts): a Choice is the assistant message its
// client sends back, trained after exactly the prompt it was sampled from, as its tokens were sampled.
import { ChatTemplateError, messagePath, type ChatFormat } from "@/lib/engine/tokenizer/chat-template";
import type { TokenLookup } from "@/lib/engine/tokenizer/training-vocabulary";
import { TrajectoryError, type TrajectoryLocation } from "../trajectory-error";
import { lookupChoiceToken } from "./lookup-choice-token";
import { isChoice, type Choice, type History, type Trajectory } from "./schemas";
import { tokenizeConversation, type TrainedTurn, type TrainingRow } from "./tokenize-conversation";

/** `format`: the model's, as serving renders it; `vocabulary`: where a Choice's sampled tokens are
 *  looked up (TrainingVocabulary). A history longer than `maxTokens` is an error. */
export function tokenizeHistory(format: ChatFormat, vocabulary: TokenLookup, history: History, location: TrajectoryLocation, maxTokens: number): TrainingRow[] {
  const items = history.messages_and_choices;
  const messages = items.map((item) => (isChoice(item) ? choiceMessage(item) : item));
  const turns = items.flatMap((item, index) => (isChoice(item) ? [choiceTurn(vocabulary, item, location, index)] : []));
  let rows: TrainingRow[];
  try {
    rows = tokenizeConversation(format, { messages, tools: history.tools, chat_template_kwargs: history.chat_template_kwargs }, turns);
  } catch (error) {
    if (!(error instanceof ChatTemplateError)) throw error;
    throw new TrajectoryError(location, error.at ? messagePath(error.at, "messages_and_choices") : "", error.problem);
  }
  const longest = Math.max(0, ...rows.map((r) => r.ids.length));
  if (longest > maxTokens) {
    throw new TrajectoryError(location, "", `the conversation is ${longest} tokens long, more than the model's context of ${maxTokens}`);
  }
  return rows;
}

/** The main history and every additional history of a trajectory (history k at location k). */
export function tokenizeTrajectory(format: ChatFormat, vocabulary: TokenLookup, trajectory: Trajectory, location: TrajectoryLocation, maxTokens: number): TrainingRow[] {
  return [trajectory, ...trajectory.additional_histories].flatMap((h, history) => tokenizeHistory(format, vocabulary, h, { ...location, history }, maxTokens));
}

/** A Choice as the assistant message a client puts in its next request (a refusal as its text). */
function choiceMessage({ message }: Choice) {
  return { ...message, role: "assistant", content: message.content ?? message.refusal };
}

function choiceTurn(vocabulary: TokenLookup, choice: Choice, location: TrajectoryLocation, index: number): TrainedTurn {
  const field = choice.logprobs?.content?.length ? "content" : choice.logprobs?.refusal?.length ? "refusal" : null;
  // No sampler record: train on the message as the template writes it, with ratio 1.
  if (!field) return { index, ended: choice.finish_reason !== "length" };
  const entries = choice.logprobs![field]!;
  const ids = entries.map((entry, k) => {
    const id = lookupChoiceToken(vocabulary, entry);
    if (id === undefined) {
      throw new TrajectoryError(location, `messages_and_choices[${index}].logprobs.${field}[${k}]`,
        `token ${JSON.stringify(entry.token)} is not in the model's vocabulary (${vocabulary.vocabSize} tokens)`);
    }
    return id;
  });
  return { index, sampled: { ids, logprobs: entries.map((e) => e.logprob ?? NaN) } };
}
