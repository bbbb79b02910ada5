"use client";

import { Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useDeleteQueue, type QueueDto } from "./queries";

/** Deletes a queue after asking; the annotations given in it stay (they are the project's feedback). */
export function DeleteQueueDialog({ queue }: { queue: QueueDto }) {
  const remove = useDeleteQueue(queue.id);
  const router = useRouter();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="danger-ghost" size="sm">
          <Trash2 aria-hidden /> Delete
        </Button>
      }
      title={`Delete ${queue.name}?`}
      description="Annotators no longer see it. The annotations already given stay in the project's feedback."
      action={remove}
      label="Delete queue"
      pendingLabel="Deleting…"
      onConfirm={() => remove.mutate(undefined, { onSuccess: () => router.push("/queues") })}
    />
  );
}
