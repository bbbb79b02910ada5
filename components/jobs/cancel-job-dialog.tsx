"use client";

import { Ban } from "lucide-react";
import { useCancelJob, type Job } from "@/components/jobs/queries";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

/** Cancel a queued or running job, after a confirmation. */
export function CancelJobDialog({ job }: { job: Job }) {
  const cancel = useCancelJob(job.id);
  return (
    <ConfirmDialog
      trigger={
        <Button variant="secondary" size="sm" disabled={job.cancel_requested}>
          <Ban /> {job.cancel_requested ? "Cancelling…" : "Cancel job"}
        </Button>
      }
      title="Cancel this job?"
      description="A running job stops within a heartbeat. It writes no checkpoint; the steps it took are lost."
      action={cancel}
      label="Cancel job"
      pendingLabel="Cancelling…"
      onConfirm={(close) => cancel.mutate(undefined, { onSuccess: close })}
    />
  );
}
