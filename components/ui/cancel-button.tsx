"use client";

import { Ban } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog, type ConfirmedAction } from "@/components/ui/confirm-dialog";

/** "Cancel <noun>" behind a confirmation, for long-running work (a job, an RL run). */
export function CancelButton({ noun, cancelRequested, cancel, description }: {
  noun: string;
  cancelRequested: boolean;
  /** A react-query mutation that takes no variables. */
  cancel: ConfirmedAction & { mutate: (variables: undefined, options: { onSuccess: () => void }) => void };
  description: string;
}) {
  return (
    <ConfirmDialog
      trigger={
        <Button variant="secondary" size="sm" disabled={cancelRequested}>
          <Ban /> {cancelRequested ? "Cancelling…" : `Cancel ${noun}`}
        </Button>
      }
      title={`Cancel this ${noun}?`}
      description={description}
      action={cancel}
      label={`Cancel ${noun}`}
      pendingLabel="Cancelling…"
      onConfirm={(close) => cancel.mutate(undefined, { onSuccess: close })}
    />
  );
}
