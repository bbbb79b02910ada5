"use client";

import { useEffect, useState } from "react";
import type { ChatCompletionBody } from "@/components/inference/queries";
import { BOTH_COLUMNS, type ColumnIndex } from "@/components/playground/columns";
import { useChatRun, type ChatRun } from "@/components/playground/use-chat-run";

// The runs of the columns on one conversation: column A alone, or A and B side by side while
// comparing. An answer joins the conversation through `onAnswer`: a single column's as soon as it
// ends, a compared one when the user keeps it.

export function useRunPair(startCompared: boolean, onAnswer: (run: ChatRun) => void) {
  const [compare, setCompare] = useState(startCompared);
  const a = useChatRun();
  const b = useChatRun();
  const pair = [a, b] as const;
  const columns: readonly ColumnIndex[] = compare ? BOTH_COLUMNS : [0];
  const busy = a.busy || b.busy;

  const { run: single, clear: clearSingle } = a;
  useEffect(() => {
    if (compare || !single || (single.status !== "done" && single.status !== "stopped")) return;
    onAnswer(single);
    clearSingle();
  }, [compare, single, clearSingle, onAnswer]);

  /** Runs each active column on the request built for it, recorded in the project given for it. */
  function start(requestFor: (i: ColumnIndex) => ChatCompletionBody, projectFor: (i: ColumnIndex) => string | undefined) {
    for (const i of columns) void pair[i].start(requestFor(i), projectFor(i));
  }
  function stop() {
    a.stop();
    b.stop();
  }
  /** Drops both runs; one still streaming is aborted. */
  function clear() {
    a.clear();
    b.clear();
  }
  /** A compared answer joins the conversation, and the columns empty for the next turn. */
  function keep(i: ColumnIndex) {
    const run = pair[i].run;
    if (!run) return;
    onAnswer(run);
    clear();
  }
  function toggleCompare() {
    clear();
    setCompare((on) => !on);
  }

  return { compare, columns, runs: [a.run, b.run] as const, busy, start, stop, clear, keep, toggleCompare };
}
