"use client";

import { ThumbsDown, ThumbsUp } from "lucide-react";
import { REACTION, THUMBS_DOWN, THUMBS_UP, useMyFeedback, useSetOwnFeedback, type JudgedCall } from "@/components/calls/feedback";
import { errorMessage } from "@/lib/client/api-fetch";

// Thumbs up and down on a call: one reaction per person. Pressing the other thumb replaces
// one's reaction; pressing the pressed one takes it back. Shows how many people chose each.

export function ReactionButtons({ call, compact = false }: { call: JudgedCall; compact?: boolean }) {
  const { feedback, mine, settled } = useMyFeedback(call);
  const set = useSetOwnFeedback(call);
  const current = mine(REACTION);
  const chosen = current[0]?.payload.emoji;
  const counts = (emoji: string) => (feedback.data ?? []).filter((row) => row.feedback_type === REACTION && row.payload.emoji === emoji).length;

  function press(emoji: string) {
    set.mutate({ type: REACTION, payload: chosen === emoji ? null : { emoji }, current });
  }

  const button = (emoji: string, label: string, Icon: typeof ThumbsUp, pressedClass: string) => {
    const pressed = chosen === emoji;
    const count = counts(emoji);
    return (
      <button
        type="button"
        aria-label={label}
        aria-pressed={pressed}
        disabled={!settled || set.isPending}
        onClick={() => press(emoji)}
        title={pressed ? `${label} (yours; press again to take it back)` : label}
        className={`inline-flex items-center gap-1 rounded-md border px-2 py-1 text-xs font-medium tabular-nums transition-colors focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 disabled:opacity-60 ${
          pressed ? pressedClass : "border-zinc-200 bg-white text-zinc-600 hover:bg-zinc-50"
        }`}
      >
        <Icon className="size-3.5" aria-hidden />
        {!compact && count > 0 && <span>{count}</span>}
      </button>
    );
  };

  return (
    <div className="flex items-center gap-1.5" data-testid="reactions">
      {button(THUMBS_UP, "Thumbs up", ThumbsUp, "border-emerald-300 bg-emerald-50 text-emerald-700")}
      {button(THUMBS_DOWN, "Thumbs down", ThumbsDown, "border-red-300 bg-red-50 text-red-700")}
      {set.isError && (
        <span role="alert" className="text-xs text-red-600">
          {errorMessage(set.error)}
        </span>
      )}
    </div>
  );
}
