"use client";

import { useState, type FormEvent } from "react";
import { Dialog, DialogActions, DialogContent } from "@/components/ui/dialog";
import { INPUT_CLASS } from "@/components/ui/field";
import { Alert } from "@/components/ui/alert";
import { errorMessage } from "@/lib/client/api-fetch";

// Skipping an item, with an optional reason (stored as a note on the call). Skipping is final for
// this annotator: the item goes to the others. Enter (or Ctrl/⌘+Enter) in the reason confirms.

export interface SkipDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  error: unknown;
  onSkip: (reason: string | undefined) => void;
}

export function SkipDialog({ open, onOpenChange, pending, error, onSkip }: SkipDialogProps) {
  const [reason, setReason] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSkip(reason.trim() || undefined);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setReason("");
        onOpenChange(next);
      }}
    >
      <DialogContent title="Skip this item?" description="It goes to the other annotators; you will not see it again in this queue.">
        <form onSubmit={submit} className="space-y-2">
          <label htmlFor="skip-reason" className="block text-sm font-medium text-zinc-800">
            Reason <span className="font-normal text-zinc-400">(optional, saved as a note)</span>
          </label>
          <input id="skip-reason" autoFocus value={reason} maxLength={4096} onChange={(e) => setReason(e.target.value)} className={INPUT_CLASS} placeholder="e.g. not in a language I read" />
          {error ? <Alert title="Could not skip">{errorMessage(error)}</Alert> : null}
          <DialogActions label="Skip item" pendingLabel="Skipping…" pending={pending} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
