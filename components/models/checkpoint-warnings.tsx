import { AlertTriangle } from "lucide-react";
import type { JobWarning } from "@/lib/client/learning-curve";

// The warnings of the job that wrote a checkpoint, where the checkpoint can be picked (the model
// page's checkpoint rows, the playground's picker): compact, beside it, so nobody serves or
// chats with a checkpoint its job flagged without seeing why. The job's page shows them in full.

export function CheckpointWarnings({ warnings }: { warnings: readonly JobWarning[] }) {
  if (warnings.length === 0) return null;
  return (
    <ul data-testid="checkpoint-warnings" aria-label="Warnings of the job that wrote this checkpoint" className="mt-1 space-y-0.5 text-[11px] text-amber-800">
      {warnings.map((w) => (
        <li key={w.code} data-code={w.code} className="flex gap-1">
          <AlertTriangle className="mt-0.5 size-3 shrink-0 text-amber-500" aria-hidden />
          <span>{w.message}</span>
        </li>
      ))}
    </ul>
  );
}
