"use client";

import { useEffect, useRef } from "react";

// A borderless textarea that grows with its text (up to 320 px, then scrolls): the playground's
// editable messages and system prompt.

export function AutoTextarea({ value, onChange, label, placeholder }: { value: string; onChange: (v: string) => void; label: string; placeholder?: string }) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, 320)}px`;
  }, [value]);
  return (
    <textarea
      ref={ref}
      aria-label={label}
      rows={1}
      value={value}
      placeholder={placeholder}
      onChange={(e) => onChange(e.target.value)}
      className="block w-full resize-none bg-transparent text-sm leading-6 text-zinc-900 placeholder:text-zinc-400 focus:outline-none"
    />
  );
}
