"use client";

// Two or three ways to fill one launch form (picked rows, or chosen by judgement): a radio group of
// buttons above the form of the chosen way.

import { useState, type ReactNode } from "react";

interface Mode {
  id: string;
  label: string;
  /** Mounted only while its mode is chosen. */
  form: ReactNode;
}

export function ModeForms({ label, modes }: { label: string; modes: Mode[] }) {
  const [current, setCurrent] = useState(modes[0].id);
  return (
    <div className="space-y-4">
      <div role="radiogroup" aria-label={label} className="inline-flex rounded-md border border-zinc-200 bg-zinc-50 p-0.5">
        {modes.map((mode) => (
          <button
            key={mode.id}
            type="button"
            role="radio"
            aria-checked={current === mode.id}
            onClick={() => setCurrent(mode.id)}
            className={`rounded px-2.5 py-1 text-xs font-medium ${current === mode.id ? "bg-white text-zinc-900 shadow-xs" : "text-zinc-500 hover:text-zinc-800"}`}
          >
            {mode.label}
          </button>
        ))}
      </div>
      {modes.find((mode) => mode.id === current)?.form}
    </div>
  );
}
