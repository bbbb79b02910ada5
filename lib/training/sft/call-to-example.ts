// A recorded call as an SFT example: what the console's "SFT from calls" form sends and what a
// dataset built from human judgement holds (lib/training/from-judgement/build-sft-dataset.ts).
// Pure, so the console imports it too.

type Message = Record<string, unknown>;

/** A recorded call as an SFT example: the request's messages, then the answer it got. */
export function callToExample(call: { messages: Message[]; output: Message | null }): { messages: Message[] } | null {
  if (!call.output) return null;
  const { role, content, tool_calls } = call.output;
  const answer: Message = { role: role ?? "assistant", content: content ?? "" };
  if (Array.isArray(tool_calls) && tool_calls.length) answer.tool_calls = tool_calls;
  return { messages: [...call.messages, answer] };
}
