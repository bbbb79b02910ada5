"use client";

import { useState } from "react";
import { MessageView } from "@/components/calls/conversation";
import type { LogprobToken } from "@/components/inference/queries";
import { AnswerViewToggle, TintLegend, TokenLogprobs, type AnswerView } from "@/components/playground/token-logprobs";

// A recorded response's answers (one per choice): the message as text, or its tokens tinted by
// logprob (the same view as the playground's), with each choice's finish reason.

interface Choice {
  index?: number;
  message?: Record<string, unknown>;
  finish_reason?: unknown;
  logprobs?: { content?: LogprobToken[] | null } | null;
}

export function CallAnswer({ response, fallback }: { response: Record<string, unknown> | null; fallback: Record<string, unknown> | null }) {
  const choices: Choice[] = Array.isArray(response?.choices) ? (response.choices as Choice[]) : fallback ? [{ index: 0, message: fallback }] : [];
  const hasTokens = choices.some((c) => (c.logprobs?.content?.length ?? 0) > 0);
  const [view, setView] = useState<AnswerView>("text");
  if (choices.length === 0) return <p className="px-4 py-6 text-sm text-zinc-500">The call produced no answer.</p>;
  return (
    <div>
      {hasTokens && (
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-zinc-100 px-4 py-2">
          <AnswerViewToggle view={view} onView={setView} />
          {view === "tokens" && <TintLegend />}
        </div>
      )}
      {choices.map((choice, i) => {
        const label = choices.length > 1 ? `choice ${choice.index ?? i}` : "answer";
        const tokens = choice.logprobs?.content ?? [];
        return (
          <div key={i} data-testid="answer">
            {view === "tokens" && tokens.length > 0 ? (
              <div className="space-y-2 border-b border-zinc-100 px-4 py-3 last:border-0">
                <p className="text-xs font-medium text-zinc-500">{label}</p>
                <TokenLogprobs tokens={tokens} />
              </div>
            ) : (
              <MessageView message={choice.message ?? { role: "assistant", content: null }} label={label} />
            )}
            {typeof choice.finish_reason === "string" && (
              <p className="px-4 pb-3 text-[11px] text-zinc-500">
                finish <span className="font-mono text-zinc-700">{choice.finish_reason}</span>
              </p>
            )}
          </div>
        );
      })}
    </div>
  );
}
