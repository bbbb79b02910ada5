"use client";

import { useEffect, useEffectEvent } from "react";

// The playground's keys, anywhere on the page but inside a dialog: Ctrl/⌘+Enter runs, Escape stops
// a run in progress.

export function useRunShortcuts({ run, stop, busy }: { run: () => void; stop: () => void; busy: boolean }) {
  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if ((event.target as Element | null)?.closest?.("[role=dialog]")) return;
    if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      run();
    } else if (event.key === "Escape" && busy) {
      event.preventDefault();
      stop();
    }
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey(event);
    window.addEventListener("keydown", listener);
    return () => window.removeEventListener("keydown", listener);
  }, []);
}
