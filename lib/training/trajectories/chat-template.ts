// Turns OpenAI-style messages and tools into the ChatML messages Anneal's models are trained on.
// ChatML itself has no tool syntax, so tools use the Hermes convention Qwen2.5's template uses: the
// function signatures in a <tools> block of the system message, an assistant's calls as
// <tool_call>{"name", "arguments"}</tool_call>, and a tool's result as a user turn in
// <tool_response>. Only text content is kept (these models read no images).
import type { ChatMessage } from "@/lib/engine/tokenizer/chatml";
import type { TrajectoryMessage, TrajectoryTool } from "./schemas";

type Content = TrajectoryMessage["content"];
type ToolCalls = TrajectoryMessage["tool_calls"];

export function contentText(content: Content): string {
  if (content == null) return "";
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");
}

/** An assistant turn's text: its content, then each tool call on its own <tool_call> block. */
export function assistantText(content: Content, toolCalls: ToolCalls): string {
  const calls = (toolCalls ?? []).map(({ function: f }) => {
    let args: unknown = f.arguments ?? "{}";
    try {
      args = JSON.parse(f.arguments ?? "{}");
    } catch {
      // Sampled arguments may be invalid JSON; the template still shows what the model wrote.
    }
    return `<tool_call>\n${JSON.stringify({ name: f.name, arguments: args })}\n</tool_call>`;
  });
  return [contentText(content), ...calls].filter((part) => part !== "").join("\n");
}

export function chatMessage(message: TrajectoryMessage): ChatMessage {
  switch (message.role) {
    case "assistant":
      return { role: "assistant", content: assistantText(message.content, message.tool_calls) };
    case "tool":
    case "function":
      return { role: "user", content: `<tool_response>\n${contentText(message.content)}\n</tool_response>` };
    case "developer":
      return { role: "system", content: contentText(message.content) };
    default:
      return { role: message.role, content: contentText(message.content) };
  }
}

function toolsBlock(tools: readonly TrajectoryTool[]): string {
  const signatures = tools.map((t) => JSON.stringify(t)).join("\n");
  return (
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n" +
    `You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n${signatures}\n</tools>\n\n` +
    "For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n" +
    '<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
  );
}

/**
 * Where the tools go: into the conversation's own first system message (its content, then the tools
 * block), or a new system message put first. Returns the messages to render before the rest and how
 * many of the conversation's leading messages they replace (0 or 1).
 */
export function placeTools(tools: readonly TrajectoryTool[] | null | undefined, first: ChatMessage | undefined): { prefix: ChatMessage[]; skip: number } {
  if (!tools?.length) return { prefix: [], skip: 0 };
  const block = toolsBlock(tools);
  return first?.role === "system"
    ? { prefix: [{ role: "system", content: `${first.content}\n\n${block}` }], skip: 1 }
    : { prefix: [{ role: "system", content: block }], skip: 0 };
}
