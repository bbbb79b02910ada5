"use client";

import { useState, type FormEvent } from "react";
import { NOTE, useMyFeedback, useSetOwnFeedback, type JudgedCall } from "@/components/calls/feedback";
import { Button } from "@/components/ui/button";
import { INPUT_CLASS } from "@/components/ui/field";
import { errorMessage } from "@/lib/client/api-fetch";

// One's own note on a call (one per person): written, edited in place (the row is replaced) or
// deleted.

const MAX_NOTE = 1024;

export function NoteEditor({ call }: { call: JudgedCall }) {
  const { mine, ready, settled } = useMyFeedback(call);
  const set = useSetOwnFeedback(call);
  const current = mine(NOTE);
  const saved = typeof current[0]?.payload.note === "string" ? (current[0].payload.note as string) : "";
  // The draft follows the saved note until the person edits it.
  const [draft, setDraft] = useState<string | null>(null);
  const text = draft ?? saved;
  const length = [...text].length;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    set.mutate({ type: NOTE, payload: { note: text }, current }, { onSuccess: () => setDraft(null) });
  }

  return (
    <form onSubmit={onSubmit} className="space-y-2">
      <label htmlFor="call-note" className="block text-sm font-medium text-zinc-800">
        Your note
      </label>
      <textarea
        id="call-note"
        rows={3}
        value={text}
        onChange={(e) => setDraft(e.target.value)}
        placeholder="What is right or wrong with this answer?"
        className={INPUT_CLASS}
        aria-invalid={length > MAX_NOTE || undefined}
        disabled={!ready}
      />
      <div className="flex items-center justify-between gap-3">
        <span className={`text-xs tabular-nums ${length > MAX_NOTE ? "text-red-600" : "text-zinc-400"}`}>
          {length}/{MAX_NOTE}
        </span>
        <div className="flex items-center gap-2">
          {saved && (
            <Button variant="danger-ghost" size="sm" disabled={!settled || set.isPending} onClick={() => set.mutate({ type: NOTE, payload: null, current }, { onSuccess: () => setDraft(null) })}>
              Delete note
            </Button>
          )}
          <Button type="submit" size="sm" disabled={!settled || set.isPending || !text.trim() || length > MAX_NOTE || text === saved}>
            {set.isPending ? "Saving…" : saved ? "Update note" : "Save note"}
          </Button>
        </div>
      </div>
      {set.isError && (
        <p role="alert" className="text-xs text-red-600">
          {errorMessage(set.error)}
        </p>
      )}
    </form>
  );
}
