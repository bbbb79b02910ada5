"use client";

import { MessageSquarePlus } from "lucide-react";
import { BOTH_COLUMNS, ColumnBadge, COLUMNS, type ColumnIndex } from "@/components/playground/columns";
import { RunOutput, type OutputView } from "@/components/playground/run-output";
import { settingsSummary, type RunSettings } from "@/components/playground/run-settings";
import type { ChatRun } from "@/components/playground/use-chat-run";

// The answers side by side while comparing. Each column: its model and what its parameters change
// in the header, the answer as it streams, and, once it has ended, the button that keeps it in the
// conversation.

export function CompareColumns({ runs, settings, modelOf, view, onKeep }: { runs: readonly [ChatRun | null, ChatRun | null]; settings: readonly [RunSettings, RunSettings]; modelOf: (i: ColumnIndex) => string | undefined; view: OutputView; onKeep: (i: ColumnIndex) => void }) {
  return (
    <div className="grid grid-cols-2 gap-3 px-1 pt-2 pb-1">
      {BOTH_COLUMNS.map((i) => (
        <CompareColumn key={i} index={i} run={runs[i]} settings={settings[i]} model={runs[i]?.model ?? modelOf(i)} view={view} onKeep={() => onKeep(i)} />
      ))}
    </div>
  );
}

function CompareColumn({ index, run, settings, model, view, onKeep }: { index: ColumnIndex; run: ChatRun | null; settings: RunSettings; model?: string; view: OutputView; onKeep: () => void }) {
  const done = run && (run.status === "done" || run.status === "stopped");
  const { label } = COLUMNS[index];
  return (
    <section aria-label={`Column ${label}`} data-testid={`column-${label}`} className={`flex min-w-0 flex-col rounded-lg border border-zinc-200 bg-white ring-2 ring-transparent ${run ? "" : "border-dashed"}`}>
      <header className="flex items-center gap-2 border-b border-zinc-100 px-3 py-2">
        <ColumnBadge index={index} />
        <span className="truncate font-mono text-[12px] font-medium text-zinc-800">{model ?? "…"}</span>
        <span className="ml-auto truncate text-[11px] text-zinc-400">{settingsSummary(settings).join(" · ")}</span>
      </header>
      <div className="flex-1 px-3 py-2.5">
        {run ? <RunOutput run={run} view={view} /> : <p className="text-sm text-zinc-400">Run to see this column’s answer.</p>}
      </div>
      {done && run.text && (
        <footer className="border-t border-zinc-100 px-3 py-1.5">
          <button type="button" onClick={onKeep} className="inline-flex items-center gap-1 rounded px-1.5 py-1 text-[12px] font-medium text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900">
            <MessageSquarePlus className="size-3.5" /> Continue with {label}
          </button>
        </footer>
      )}
    </section>
  );
}
