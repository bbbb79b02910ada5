"use client";

import { Ban } from "lucide-react";
import { useCancelRlRun, type RlRun } from "@/components/rl-runs/queries";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

/** Cancel a queued or running run (and the job of its iteration in progress), after a confirmation. */
export function CancelRlRunDialog({ run }: { run: RlRun }) {
  const cancel = useCancelRlRun(run.id);
  return (
    <ConfirmDialog
      trigger={
        <Button variant="secondary" size="sm" disabled={run.cancel_requested}>
          <Ban /> {run.cancel_requested ? "Cancelling…" : "Cancel run"}
        </Button>
      }
      title="Cancel this RL run?"
      description="The iteration in progress stops and its job is cancelled. Checkpoints earlier iterations wrote stay."
      action={cancel}
      label="Cancel run"
      pendingLabel="Cancelling…"
      onConfirm={(close) => cancel.mutate(undefined, { onSuccess: close })}
    />
  );
}
