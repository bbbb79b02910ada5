// One SFT example ({messages, tools?}, a line of train.jsonl) → ChatML ids and the mask of the
// tokens to learn: every assistant turn's content and closing <|im_end|> ("all"), or the last
// turn's only ("last"). A Choice among the messages counts as its assistant message.
import { z } from "zod";
import { encodeChat, type ChatMessage, type EncodedChat } from "@/lib/engine/tokenizer/chatml";
import type { Tokenizer } from "@/lib/engine/tokenizer/tokenizer";
import { invalid } from "@/lib/http/errors";
import { assistantText, chatMessage, placeTools } from "../trajectories/chat-template";
import { isChoice, messageOrChoiceSchema, trajectoryToolSchema } from "../trajectories/schemas";
import type { AssistantTurns } from "./sft-config";

export const sftExampleSchema = z.looseObject({
  messages: z
    .array(messageOrChoiceSchema)
    .min(1, "messages must not be empty")
    .refine((m) => m.length === 0 || isChoice(m[m.length - 1]) || m[m.length - 1].role === "assistant", "the last message must be from the assistant"),
  tools: z.array(trajectoryToolSchema).nullish(),
});
export type SftExample = z.infer<typeof sftExampleSchema>;

/** `index` names the example (its line) in errors. */
export function tokenizeSftExample(tokenizer: Tokenizer, example: SftExample, turns: AssistantTurns, maxTokens: number, index: number): EncodedChat {
  const messages: ChatMessage[] = example.messages.map((m) =>
    isChoice(m) ? { role: "assistant", content: assistantText(m.message.content, m.message.tool_calls) } : chatMessage(m));
  const { prefix, skip } = placeTools(example.tools, messages[0]);
  const conversation = [...prefix, ...messages.slice(skip)];
  const encoded = encodeChat(tokenizer, conversation);
  if (encoded.ids.length > maxTokens) {
    throw invalid(["training_data", String(index)], `the conversation is ${encoded.ids.length} tokens long, more than the model's context of ${maxTokens}`);
  }
  if (turns === "last") {
    // ChatML messages encode independently, so the last turn starts where the others end.
    encoded.assistantMask.fill(0, 0, encodeChat(tokenizer, conversation.slice(0, -1)).ids.length);
  }
  return encoded;
}
