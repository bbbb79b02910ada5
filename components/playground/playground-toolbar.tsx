"use client";

import { Code2, Columns2, Eraser } from "lucide-react";
import type { OutputView } from "@/components/playground/run-output";
import { AnswerViewToggle } from "@/components/playground/token-logprobs";
import { Button } from "@/components/ui/button";

// The playground's header actions: where runs are recorded, text or token view, compare on or
// off, the request as code, and a fresh conversation.

export function PlaygroundToolbar({ projects, view, onView, compare, onToggleCompare, onGetCode, onClear }: {
  /** Where the active columns' runs are recorded (a trained model's own project, else the workspace's). */
  projects: string[];
  view: OutputView;
  onView: (view: OutputView) => void;
  compare: boolean;
  onToggleCompare: () => void;
  onGetCode: () => void;
  onClear: () => void;
}) {
  return (
    <>
      {projects.length > 0 && (
        <span
          className="hidden items-center gap-1.5 text-xs text-zinc-500 lg:inline-flex"
          title="Runs are recorded as calls in this project (a trained model's own, else the top bar's), and the code sends the same header"
        >
          Recorded in
          {projects.map((project) => (
            <code key={project} data-testid="recording-project" className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-[11px] text-zinc-700 ring-1 ring-zinc-200">
              Svc-Project: {project}
            </code>
          ))}
        </span>
      )}
      <AnswerViewToggle view={view} onView={onView} />
      <Button variant="secondary" size="sm" aria-pressed={compare} onClick={onToggleCompare} className={compare ? "border-violet-300 bg-violet-50 text-violet-800 hover:bg-violet-100" : ""}>
        <Columns2 /> Compare
      </Button>
      <Button variant="secondary" size="sm" onClick={onGetCode}>
        <Code2 /> Get code
      </Button>
      <Button variant="ghost" size="sm" onClick={onClear} aria-label="Clear conversation" title="Clear conversation">
        <Eraser />
      </Button>
    </>
  );
}
