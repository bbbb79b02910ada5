"use client";

import { Pencil, Trash2 } from "lucide-react";
import { AutoTextarea } from "@/components/playground/auto-textarea";
import { RunStats, type OutputView } from "@/components/playground/run-output";
import { TokenLogprobs } from "@/components/playground/token-logprobs";
import type { Message } from "@/components/playground/use-conversation";

// One turn of the conversation: its role (click to switch), its text to edit, or, for an answer a
// run wrote, that answer with its tokens and stats until the user edits it.

export function MessageRow({ message, view, onChange, onDelete }: { message: Message; view: OutputView; onChange: (m: Message) => void; onDelete: () => void }) {
  const isUser = message.role === "user";
  const answer = isUser ? undefined : message.run;
  return (
    <div data-testid={`message-${message.role}`} className="group relative grid grid-cols-[5.5rem_1fr_auto] gap-3 rounded-lg px-3 py-2.5 hover:bg-zinc-50">
      <button
        type="button"
        onClick={() => onChange({ ...message, role: isUser ? "assistant" : "user", run: undefined })}
        title="Switch role"
        className="h-6 self-start rounded px-1.5 text-left text-[11px] font-semibold tracking-wide text-zinc-500 uppercase hover:bg-zinc-200/70 hover:text-zinc-800"
      >
        {isUser ? "User" : "Assistant"}
      </button>
      <div className="min-w-0">
        {answer ? (
          <div className="space-y-1.5">
            {view === "tokens" && answer.tokens.length > 0 ? (
              <TokenLogprobs tokens={answer.tokens} />
            ) : (
              <div data-testid="run-text" className="text-sm leading-6 break-words whitespace-pre-wrap text-zinc-800">
                {message.content || <span className="text-zinc-400 italic">(empty answer)</span>}
              </div>
            )}
            <div className="flex flex-wrap items-center gap-x-3">
              {answer.model && <span className="font-mono text-[11px] text-zinc-400">{answer.model}</span>}
              <RunStats run={answer} />
            </div>
          </div>
        ) : (
          <AutoTextarea label={`${isUser ? "User" : "Assistant"} message`} value={message.content} onChange={(content) => onChange({ ...message, content })} placeholder={isUser ? "Enter a user message" : "Enter an assistant message"} />
        )}
      </div>
      <div className="flex items-start gap-0.5 opacity-0 transition-opacity group-focus-within:opacity-100 group-hover:opacity-100">
        {answer && (
          <button type="button" aria-label="Edit answer" title="Edit (drops its logprobs)" onClick={() => onChange({ ...message, run: undefined })} className="rounded p-1 text-zinc-400 hover:bg-zinc-200/70 hover:text-zinc-700">
            <Pencil className="size-3.5" />
          </button>
        )}
        <button type="button" aria-label="Delete message" onClick={onDelete} className="rounded p-1 text-zinc-400 hover:bg-zinc-200/70 hover:text-red-600">
          <Trash2 className="size-3.5" />
        </button>
      </div>
    </div>
  );
}
