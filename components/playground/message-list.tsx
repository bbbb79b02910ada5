"use client";

import { useEffect, useRef, type ReactNode } from "react";
import { AutoTextarea } from "@/components/playground/auto-textarea";
import { ConversationStarter } from "@/components/playground/conversation-starter";
import { MessageRow } from "@/components/playground/message-row";
import { RunOutput, type OutputView } from "@/components/playground/run-output";
import type { ChatRun } from "@/components/playground/use-chat-run";
import type { Conversation } from "@/components/playground/use-conversation";

// The conversation as a thread: the system prompt, each turn, and below them what is being
// answered (one column's answer as it streams, or the compared columns); it follows the newest
// text down.

export function MessageList({ conversation, view, runs, comparison, onPickExample }: {
  conversation: Conversation;
  view: OutputView;
  runs: readonly [ChatRun | null, ChatRun | null];
  /** The compared columns while comparing; otherwise column A's answer streams as the next turn. */
  comparison?: ReactNode;
  onPickExample: (text: string) => void;
}) {
  const { system, setSystem, messages, draft, replace, remove } = conversation;
  const live = comparison ? null : runs[0];
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView({ block: "nearest" });
  }, [messages.length, runs[0]?.text, runs[1]?.text]);

  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <div className="border-b border-zinc-100 px-3 py-2">
        <div className="grid grid-cols-[5.5rem_1fr] gap-3 px-3 py-0.5">
          <span className="pt-0.5 text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">System</span>
          <AutoTextarea label="System prompt" value={system} onChange={setSystem} placeholder="You are a helpful assistant. (optional)" />
        </div>
      </div>
      <div className="space-y-0.5 px-3 py-2">
        {messages.length === 0 && !live && !draft && <ConversationStarter onPick={onPickExample} />}
        {messages.map((message) => (
          <MessageRow key={message.id} message={message} view={view} onChange={replace} onDelete={() => remove(message.id)} />
        ))}
        {live && (
          <div data-testid="live-answer" className="grid grid-cols-[5.5rem_1fr_auto] gap-3 rounded-lg bg-brand-50/40 px-3 py-2.5">
            <span className="pt-0.5 text-[11px] font-semibold tracking-wide text-brand-700 uppercase">Assistant</span>
            <RunOutput run={live} view={view} />
            <span />
          </div>
        )}
        {comparison && (runs[0] || runs[1]) && comparison}
        <div ref={end} />
      </div>
    </div>
  );
}
