// One SFT example ({messages, tools?, chat_template_kwargs?}, a line of train.jsonl) → the rows of ids to train on and the
// mask of the tokens to learn: every assistant turn ("all") or the last one ("last"), each after
// exactly the prompt serving renders for the messages before it, and written as the model's chat
// template writes that message, through its end of turn (tokenize-conversation.ts). A Choice among
// the messages counts as its assistant message.
import { z } from "zod";
import { ChatTemplateError, type ChatFormat } from "@/lib/engine/tokenizer/chat-template";
import type { EncodedChat } from "@/lib/engine/tokenizer/chatml";
import { invalid } from "@/lib/contract/errors";
import { isChoice, messageOrChoiceSchema, trainingTemplateKwargsSchema, trajectoryToolSchema } from "../trajectories/schemas";
import { tokenizeConversation } from "../trajectories/tokenize-conversation";
import type { AssistantTurns } from "./sft-config";

export const sftExampleSchema = z.looseObject({
  messages: z
    .array(messageOrChoiceSchema)
    .min(1, "messages must not be empty")
    .refine((m) => m.length === 0 || isChoice(m[m.length - 1]) || m[m.length - 1].role === "assistant", "the last message must be from the assistant"),
  tools: z.array(trajectoryToolSchema).nullish(),
  chat_template_kwargs: trainingTemplateKwargsSchema,
});
export type SftExample = z.infer<typeof sftExampleSchema>;

/** `list` and `index` name the example (its line) in errors. Usually one row; more when a later
 *  turn's prompt does not extend the earlier ones' (tokenize-conversation.ts). */
export function tokenizeSftExample(
  format: ChatFormat, example: SftExample, turns: AssistantTurns, maxTokens: number, index: number, list = "training_data",
): EncodedChat[] {
  const messages = example.messages.map((m) => (isChoice(m) ? { ...m.message, role: "assistant" } : m));
  const trained = messages.flatMap((m, i) => (m.role === "assistant" && (turns === "all" || i === messages.length - 1) ? [{ index: i }] : []));
  const where = (...path: string[]) => [list, String(index), ...path];
  try {
    return tokenizeConversation(format, { messages, tools: example.tools, chat_template_kwargs: example.chat_template_kwargs }, trained).map(({ ids, trainable }) => {
      if (ids.length > maxTokens) throw invalid(where(), `the conversation is ${ids.length} tokens long, more than the model's context of ${maxTokens}`);
      return { ids, assistantMask: trainable };
    });
  } catch (error) {
    if (!(error instanceof ChatTemplateError)) throw error;
    const at = error.at ? ["messages", String(error.at.message), ...(error.at.part === undefined ? [] : ["content", String(error.at.part)])] : [];
    throw invalid(where(...at), error.problem);
  }
}
