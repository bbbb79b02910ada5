"use client";

import { Trash2 } from "lucide-react";
import { useDeleteCheckpoints } from "@/components/models/queries";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

/** Deletes the selected checkpoints (and their files). The newest one is refused (409) while a
 *  job of the model is queued or running: the API's message says so here. */
export function DeleteCheckpointsDialog({ modelId, steps, onDeleted }: { modelId: string; steps: number[]; onDeleted: () => void }) {
  const remove = useDeleteCheckpoints(modelId);
  const sorted = [...steps].sort((a, b) => a - b);
  return (
    <ConfirmDialog
      trigger={
        <Button variant="danger-ghost" size="sm" disabled={steps.length === 0}>
          <Trash2 /> Delete selected{steps.length ? ` (${steps.length})` : ""}
        </Button>
      }
      title={`Delete ${sorted.length === 1 ? "1 checkpoint" : `${sorted.length} checkpoints`}?`}
      description="Their weight files are removed; their metrics stay on the charts. The model's step count never goes back."
      action={remove}
      label="Delete"
      pendingLabel="Deleting…"
      onConfirm={(close) =>
        remove.mutate(sorted, {
          onSuccess: () => {
            close();
            onDeleted();
          },
        })
      }
    >
      <p className="text-sm text-zinc-600">
        Steps <span className="font-mono tabular-nums">{sorted.join(", ")}</span>
      </p>
    </ConfirmDialog>
  );
}
