"use client";

import { ChevronDown, ChevronUp } from "lucide-react";
import { useState, type ReactNode } from "react";

// Long content shown folded to a few lines, with a button to unfold it. The whole content stays
// in the page (find-in-page and screen readers reach it); only its height is clipped.

/** Characters or lines beyond which content starts folded. */
const LONG_CHARS = 1200;
const LONG_LINES = 18;

export const isLong = (text: string) => text.length > LONG_CHARS || text.split("\n").length > LONG_LINES;

export function Collapsible({ long, label, children }: { long: boolean; label: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  if (!long) return <>{children}</>;
  return (
    <div>
      <div className={open ? "" : "relative max-h-72 overflow-hidden"}>
        {children}
        {!open && <div aria-hidden className="pointer-events-none absolute inset-x-0 bottom-0 h-12 bg-gradient-to-t from-white" />}
      </div>
      <button
        type="button"
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        className="mt-1 inline-flex items-center gap-1 text-xs font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        {open ? <ChevronUp className="size-3.5" aria-hidden /> : <ChevronDown className="size-3.5" aria-hidden />}
        {open ? `Fold ${label}` : `Show all of ${label}`}
      </button>
    </div>
  );
}
