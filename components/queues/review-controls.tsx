"use client";

import { Check, X } from "lucide-react";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { TextAreaField } from "@/components/ui/field";
import { errorMessage } from "@/lib/client/api-fetch";
import { REVIEW_STATE_LABEL, REVIEW_STATE_TONE } from "./item-labels";
import { useReviewItem, type ListedItemDto } from "./queries";

// A reviewer's decision on an item's annotations: Accept, or Reject with a note the annotators read
// (the item goes back to them). Offered once the item has the annotations the queue needs; a later
// decision replaces an earlier one.

export function ReviewBadge({ item }: { item: ListedItemDto }) {
  return (
    <span title={item.review.note ?? undefined}>
      <Badge tone={REVIEW_STATE_TONE[item.review.state]}>{REVIEW_STATE_LABEL[item.review.state]}</Badge>
    </span>
  );
}

export function ReviewControls({ queueId, item, reviewable }: { queueId: string; item: ListedItemDto; reviewable: boolean }) {
  const review = useReviewItem(queueId);
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState("");
  if (!reviewable) return null;
  const position = `item ${item.position_in_queue}`;
  return (
    <div className="flex items-center justify-end gap-1">
      {item.review.state !== "accepted" && (
        <Button variant="ghost" size="sm" aria-label={`Accept ${position}`} disabled={review.isPending} onClick={() => review.mutate({ itemId: item.id, body: { review_state: "accepted" } })}>
          <Check aria-hidden /> Accept
        </Button>
      )}
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) review.reset();
        }}
      >
        <DialogTrigger asChild>
          <Button variant="danger-ghost" size="sm" aria-label={`Reject ${position}`}>
            <X aria-hidden /> Reject
          </Button>
        </DialogTrigger>
        <DialogContent title={`Reject ${position}`} description="The item goes back to the annotators who wrote its annotations; they read your note.">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              review.mutate({ itemId: item.id, body: { review_state: "rejected", note } }, { onSuccess: () => setOpen(false) });
            }}
          >
            <TextAreaField label="Note to the annotators" required value={note} onChange={(e) => setNote(e.target.value)} rows={3} />
            {review.isError && <Alert>{errorMessage(review.error)}</Alert>}
            <DialogActions label="Reject" pendingLabel="Rejecting…" pending={review.isPending} variant="danger" />
          </form>
        </DialogContent>
      </Dialog>
    </div>
  );
}
