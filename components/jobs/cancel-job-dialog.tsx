"use client";

import { Ban } from "lucide-react";
import { useState } from "react";
import { useCancelJob, type Job } from "@/components/jobs/queries";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { errorMessage } from "@/lib/client/api-fetch";

/** Cancel a queued or running job, after a confirmation. */
export function CancelJobDialog({ job }: { job: Job }) {
  const [open, setOpen] = useState(false);
  const cancel = useCancelJob(job.id);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) cancel.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm" disabled={job.cancel_requested}>
          <Ban /> {job.cancel_requested ? "Cancelling…" : "Cancel job"}
        </Button>
      </DialogTrigger>
      <DialogContent title="Cancel this job?" description="A running job stops within a heartbeat. It writes no checkpoint; the steps it took are lost.">
        {cancel.isError && <Alert>{errorMessage(cancel.error)}</Alert>}
        <DialogActions label="Cancel job" pendingLabel="Cancelling…" pending={cancel.isPending} variant="danger" onConfirm={() => cancel.mutate(undefined, { onSuccess: () => setOpen(false) })} />
      </DialogContent>
    </Dialog>
  );
}
