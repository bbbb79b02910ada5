"use client";

import { Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { inferenceName } from "@/components/models/playground-link";
import { useDeleteModel, type TrainedModel } from "@/components/models/queries";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

/** Deletes the model with its checkpoints, logs and metrics; the API refuses (409) while a job
 *  of the model is queued or running, and that message is shown here. */
export function DeleteModelDialog({ model }: { model: TrainedModel }) {
  const router = useRouter();
  const remove = useDeleteModel();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="danger-ghost" size="sm">
          <Trash2 /> Delete model
        </Button>
      }
      title={`Delete “${model.name}”?`}
      description="Its checkpoints (and their files), logged trajectory groups and metrics go with it. This cannot be undone."
      action={remove}
      label="Delete model"
      pendingLabel="Deleting…"
      onConfirm={() => remove.mutate(model.id, { onSuccess: () => router.push("/models") })}
    >
      <p className="text-sm text-zinc-600">
        <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs">{inferenceName(model)}</code> stops answering chat completions at once.
      </p>
    </ConfirmDialog>
  );
}
