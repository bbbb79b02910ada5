"use client";

import { CornerDownLeft, Play, Plus, Square } from "lucide-react";
import type { Ref } from "react";
import { Kbd, modifierKey } from "@/components/playground/kbd";
import type { OutputView } from "@/components/playground/run-output";
import { TintLegend } from "@/components/playground/token-logprobs";
import { Button } from "@/components/ui/button";

// Under the thread: the next user message, added to the conversation as it is or run with it
// (Run, or Stop while answers stream), and why a run was refused.

export function Composer({ ref, draft, onDraftChange, hasMessages, onAdd, view, refused, busy, canRun, onRun, onStop }: {
  ref: Ref<HTMLTextAreaElement>;
  draft: string;
  onDraftChange: (text: string) => void;
  hasMessages: boolean;
  /** Adds the draft to the conversation without running. */
  onAdd: () => void;
  /** The token view's colours are explained here, beside the buttons. */
  view: OutputView;
  /** The last run was refused for invalid parameters, and they still are. */
  refused: boolean;
  busy: boolean;
  canRun: boolean;
  onRun: () => void;
  onStop: () => void;
}) {
  return (
    <div className="border-t border-zinc-200 bg-zinc-50/60 p-2.5">
      <div className="rounded-lg border border-zinc-300 bg-white px-3 py-2 shadow-xs focus-within:border-brand-500 focus-within:ring-2 focus-within:ring-brand-500/25">
        <textarea
          ref={ref}
          aria-label="Message"
          rows={2}
          value={draft}
          onChange={(e) => onDraftChange(e.target.value)}
          placeholder={hasMessages ? "Reply, or run again on the conversation as it is" : "Message the model"}
          className="block max-h-40 w-full resize-none bg-transparent text-sm leading-6 text-zinc-900 placeholder:text-zinc-400 focus:outline-none"
        />
        <div className="mt-1.5 flex items-center gap-2">
          <button
            type="button"
            onClick={onAdd}
            disabled={!draft.trim()}
            className="inline-flex items-center gap-1 rounded px-1.5 py-1 text-[12px] font-medium text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800 disabled:opacity-40"
            title="Add to the conversation without running"
          >
            <Plus className="size-3.5" /> Add message
          </button>
          {view === "tokens" && <TintLegend />}
          <div className="ml-auto flex items-center gap-2">
            {refused && <span role="alert" className="text-xs text-red-600">Fix the highlighted parameters</span>}
            {busy ? (
              <Button size="sm" variant="secondary" onClick={onStop}>
                <Square className="fill-current" /> Stop <Kbd>Esc</Kbd>
              </Button>
            ) : (
              <Button size="sm" onClick={onRun} disabled={!canRun}>
                <Play className="fill-current" /> Run
                <span className="ml-0.5 inline-flex items-center gap-0.5 rounded bg-white/20 px-1 text-[10px]">
                  {modifierKey()} <CornerDownLeft className="!size-2.5" />
                </span>
              </Button>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
