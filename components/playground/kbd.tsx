import type { ReactNode } from "react";

// A key as the playground's hints show it, and the modifier that Ctrl/⌘+Enter means here.

export function Kbd({ children }: { children: ReactNode }) {
  return <kbd className="rounded border border-zinc-300 bg-zinc-50 px-1 font-sans text-[10px] font-medium text-zinc-500">{children}</kbd>;
}

export const modifierKey = () => (typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform) ? "⌘" : "Ctrl");
