"use client";

import { Trash2 } from "lucide-react";
import { useState } from "react";
import { useDeleteCheckpoints } from "@/components/models/queries";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { errorMessage } from "@/lib/client/api-fetch";

/** Deletes the selected checkpoints (and their files). The newest one is refused (409) while a
 *  job of the model is queued or running: the API's message says so here. */
export function DeleteCheckpointsDialog({ modelId, steps, onDeleted }: { modelId: string; steps: number[]; onDeleted: () => void }) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteCheckpoints(modelId);
  const sorted = [...steps].sort((a, b) => a - b);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) remove.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button variant="danger-ghost" size="sm" disabled={steps.length === 0}>
          <Trash2 /> Delete selected{steps.length ? ` (${steps.length})` : ""}
        </Button>
      </DialogTrigger>
      <DialogContent
        title={`Delete ${sorted.length === 1 ? "1 checkpoint" : `${sorted.length} checkpoints`}?`}
        description="Their weight files are removed; their metrics stay on the charts. The model's step count never goes back."
      >
        <p className="text-sm text-zinc-600">
          Steps <span className="font-mono tabular-nums">{sorted.join(", ")}</span>
        </p>
        {remove.isError && (
          <div className="mt-3">
            <Alert>{errorMessage(remove.error)}</Alert>
          </div>
        )}
        <DialogActions
          variant="danger"
          label="Delete"
          pendingLabel="Deleting…"
          pending={remove.isPending}
          onConfirm={() =>
            remove.mutate(sorted, {
              onSuccess: () => {
                setOpen(false);
                onDeleted();
              },
            })
          }
        />
      </DialogContent>
    </Dialog>
  );
}
