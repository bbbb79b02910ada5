"use client";

// Two or three ways to fill one launch form (picked rows, or chosen by judgement), as a radio group
// of buttons.

export function ModeSwitch<T extends string>({ label, value, onChange, modes }: { label: string; value: T; onChange: (mode: T) => void; modes: { id: T; label: string }[] }) {
  return (
    <div role="radiogroup" aria-label={label} className="inline-flex rounded-md border border-zinc-200 bg-zinc-50 p-0.5">
      {modes.map((mode) => (
        <button
          key={mode.id}
          type="button"
          role="radio"
          aria-checked={value === mode.id}
          onClick={() => onChange(mode.id)}
          className={`rounded px-2.5 py-1 text-xs font-medium ${value === mode.id ? "bg-white text-zinc-900 shadow-xs" : "text-zinc-500 hover:text-zinc-800"}`}
        >
          {mode.label}
        </button>
      ))}
    </div>
  );
}
