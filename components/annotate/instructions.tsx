"use client";

import { ChevronDown, ChevronRight } from "lucide-react";
import { RichText } from "@/components/calls/message-content";

// The queue's instructions beside the form, folded or open (`i` toggles them).

export function Instructions({ text, open, onToggle }: { text: string; open: boolean; onToggle: () => void }) {
  if (!text.trim()) return null;
  return (
    <section className="rounded-xl border border-zinc-200 bg-white shadow-xs">
      <h2>
        <button
          type="button"
          aria-expanded={open}
          aria-controls="queue-instructions"
          onClick={onToggle}
          className="flex w-full items-center gap-1.5 px-4 py-3 text-left text-sm font-semibold text-zinc-900 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          {open ? <ChevronDown className="size-4 text-zinc-400" aria-hidden /> : <ChevronRight className="size-4 text-zinc-400" aria-hidden />}
          Instructions
        </button>
      </h2>
      {open && (
        <div id="queue-instructions" className="border-t border-zinc-100 px-4 py-3 text-sm text-zinc-700">
          <RichText text={text} />
        </div>
      )}
    </section>
  );
}
