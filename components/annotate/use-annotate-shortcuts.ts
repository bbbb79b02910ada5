"use client";

import { useEffect, useRef } from "react";

// The annotation screen's keyboard (docs/decisions.md "The annotator's keyboard"). Ctrl/⌘+Enter
// submits from anywhere, a text field included; every other key acts only when no input, textarea,
// select or open dialog has the keyboard, so typing never triggers one. Escape in a text field
// hands the keyboard back to the shortcuts.

export interface AnnotateActions {
  submit: () => void;
  skip: () => void;
  release: () => void;
  help: () => void;
  nextField: () => void;
  previousField: () => void;
  /** Focus the active field's text or number input. */
  editField: () => void;
  digit: (n: number) => void;
  previousItem: () => void;
  nextItem: () => void;
  toggleInstructions: () => void;
}

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

/** Keys a person presses, the action each runs (the shortcuts dialog lists these). */
export const SHORTCUTS: { keys: string[]; action: string }[] = [
  { keys: ["mod+Enter"], action: "Submit & next (also while typing)" },
  { keys: ["1", "…", "9"], action: "Pick a choice of the active field (yes = 1, no = 2; a whole-number score)" },
  { keys: ["j", "↓"], action: "Next field" },
  { keys: ["k", "↑"], action: "Previous field" },
  { keys: ["Enter"], action: "Type in the active field" },
  { keys: ["Esc"], action: "Stop typing (shortcuts work again)" },
  { keys: ["s"], action: "Skip this item" },
  { keys: ["r"], action: "Release this item (give it back) and go to your queues" },
  { keys: ["←"], action: "Back to your previous item" },
  { keys: ["→"], action: "Forward (towards your current item)" },
  { keys: ["i"], action: "Show or hide the instructions" },
  { keys: ["?"], action: "Show these shortcuts" },
];

/** Binds the keys to the actions a screen has (the "Queue done" screen has only some). */
export function useAnnotateShortcuts(actions: Partial<AnnotateActions>, enabled = true) {
  // The latest actions, without re-binding the listener on every render.
  const latest = useRef(actions);
  useEffect(() => {
    latest.current = actions;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      const a = latest.current;
      const inDialog = event.target instanceof Element && event.target.closest("[role=dialog]") !== null;
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        if (inDialog) return; // a dialog's own form handles it
        if (!a.submit) return;
        event.preventDefault();
        a.submit();
        return;
      }
      if (isTyping(event.target)) {
        if (event.key === "Escape" && !inDialog) (event.target as HTMLElement).blur();
        return;
      }
      if (inDialog || document.querySelector("[role=dialog]") || event.ctrlKey || event.metaKey || event.altKey) return;
      const run = (action: (() => void) | undefined) => {
        if (!action) return;
        event.preventDefault();
        action();
      };
      if (/^[1-9]$/.test(event.key)) return run(a.digit && (() => a.digit!(Number(event.key))));
      switch (event.key) {
        case "j":
        case "ArrowDown":
          return run(a.nextField);
        case "k":
        case "ArrowUp":
          return run(a.previousField);
        case "Enter":
          // Enter on a focused button presses it, as usual.
          if (event.target instanceof HTMLButtonElement || event.target instanceof HTMLAnchorElement) return;
          return run(a.editField);
        case "s":
          return run(a.skip);
        case "r":
          return run(a.release);
        case "ArrowLeft":
          return run(a.previousItem);
        case "ArrowRight":
          return run(a.nextItem);
        case "i":
          return run(a.toggleInstructions);
        case "?":
          return run(a.help);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [enabled]);
}
