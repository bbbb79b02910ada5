"use client";

import { Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { inferenceName } from "@/components/models/playground-link";
import { useDeleteModel, type TrainedModel } from "@/components/models/queries";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { errorMessage } from "@/lib/client/api-fetch";

/** Deletes the model with its checkpoints, logs and metrics; the API refuses (409) while a job
 *  of the model is queued or running, and that message is shown here. */
export function DeleteModelDialog({ model }: { model: TrainedModel }) {
  const [open, setOpen] = useState(false);
  const router = useRouter();
  const remove = useDeleteModel();
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) remove.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button variant="danger-ghost" size="sm">
          <Trash2 /> Delete model
        </Button>
      </DialogTrigger>
      <DialogContent title={`Delete “${model.name}”?`} description="Its checkpoints (and their files), logged trajectory groups and metrics go with it. This cannot be undone.">
        <p className="text-sm text-zinc-600">
          <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs">{inferenceName(model)}</code> stops answering chat completions at once.
        </p>
        {remove.isError && (
          <div className="mt-3">
            <Alert>{errorMessage(remove.error)}</Alert>
          </div>
        )}
        <DialogActions
          variant="danger"
          label="Delete model"
          pendingLabel="Deleting…"
          pending={remove.isPending}
          onConfirm={() => remove.mutate(model.id, { onSuccess: () => router.push("/models") })}
        />
      </DialogContent>
    </Dialog>
  );
}
