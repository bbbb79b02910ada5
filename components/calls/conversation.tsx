"use client";

import { Wrench } from "lucide-react";
import { MessageContent, RichText } from "@/components/calls/message-content";
import { Badge, type BadgeTone } from "@/components/ui/badge";

// A recorded conversation, message by message: who spoke (role, name), what they said, the tools
// they called with pretty-printed arguments, and a tool result's call id.

type Message = Record<string, unknown>;

const ROLE_TONE: Record<string, BadgeTone> = { system: "neutral", developer: "neutral", user: "blue", assistant: "brand", tool: "violet" };

function ToolCalls({ calls }: { calls: unknown[] }) {
  return (
    <ul className="space-y-2">
      {calls.map((call, i) => {
        const fn = (call as { function?: { name?: unknown; arguments?: unknown } } | null)?.function;
        const args = typeof fn?.arguments === "string" ? fn.arguments : JSON.stringify(fn?.arguments ?? null);
        return (
          <li key={i} className="rounded-md border border-zinc-200 px-3 py-2">
            <p className="mb-1.5 flex items-center gap-1.5 font-mono text-xs text-zinc-700">
              <Wrench className="size-3.5 text-zinc-400" aria-hidden />
              {typeof fn?.name === "string" ? fn.name : "(unnamed tool)"}
            </p>
            <RichText text={args} />
          </li>
        );
      })}
    </ul>
  );
}

/** One message; `label` replaces the role's name (e.g. "Answer"). */
export function MessageView({ message, label }: { message: Message; label?: string }) {
  const role = typeof message.role === "string" ? message.role : "message";
  const reasoning = message.reasoning_content ?? message.reasoning;
  return (
    <article data-testid="message" data-role={role} className="space-y-2 border-b border-zinc-100 px-4 py-3 last:border-0">
      <header className="flex items-center gap-2">
        <Badge tone={ROLE_TONE[role] ?? "neutral"}>{label ?? role}</Badge>
        {typeof message.name === "string" && <span className="font-mono text-xs text-zinc-500">{message.name}</span>}
        {typeof message.tool_call_id === "string" && <span className="font-mono text-[11px] text-zinc-400">result of {message.tool_call_id}</span>}
      </header>
      {typeof reasoning === "string" && reasoning && (
        <div className="rounded-md border-l-2 border-zinc-200 pl-3 text-zinc-500">
          <p className="mb-1 text-[11px] font-medium tracking-wide uppercase">Reasoning</p>
          <RichText text={reasoning} />
        </div>
      )}
      {(message.content !== null && message.content !== undefined) || !Array.isArray(message.tool_calls) ? <MessageContent content={message.content} /> : null}
      {Array.isArray(message.tool_calls) && message.tool_calls.length > 0 && <ToolCalls calls={message.tool_calls} />}
    </article>
  );
}

export function Conversation({ messages }: { messages: Message[] }) {
  if (messages.length === 0) return <p className="px-4 py-6 text-sm text-zinc-500">The request had no messages.</p>;
  return (
    <div>
      {messages.map((message, i) => (
        <MessageView key={i} message={message} />
      ))}
    </div>
  );
}
