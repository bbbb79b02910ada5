"use client";

import type { InputHTMLAttributes } from "react";

/** A text input whose value is taken when one leaves it or presses Enter, not at each keystroke
 *  (each change re-reads the stats). Remounted by its `value`, so an outside change shows. */
export function CommitInput({ value, onCommit, ...props }: Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "defaultValue" | "onBlur" | "onKeyDown"> & { value: string; onCommit: (value: string) => void }) {
  const commit = (text: string) => {
    if (text.trim() !== value) onCommit(text.trim());
  };
  return (
    <input
      key={value}
      defaultValue={value}
      onBlur={(e) => commit(e.currentTarget.value)}
      onKeyDown={(e) => {
        if (e.key === "Enter") commit(e.currentTarget.value);
      }}
      {...props}
    />
  );
}
