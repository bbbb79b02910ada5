"use client";

import { useState, type ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { Dialog, DialogActions, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { errorMessage } from "@/lib/client/api-fetch";

/** What a confirmation needs of its action (react-query's useMutation result). */
export interface ConfirmedAction {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  reset: () => void;
}

interface ConfirmDialogProps {
  /** The button that opens the dialog. */
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  /** What the action applies to, shown above the API's error. */
  children?: ReactNode;
  action: ConfirmedAction;
  label: string;
  pendingLabel: string;
  /** Starts the action; call `close` when the dialog should close (e.g. on success). */
  onConfirm: (close: () => void) => void;
}

/** Asks before a destructive action: Cancel, or the action in red. The API's refusal (e.g. a 409)
 *  is shown in the dialog and forgotten when it closes. */
export function ConfirmDialog({ trigger, title, description, children, action, label, pendingLabel, onConfirm }: ConfirmDialogProps) {
  const [open, setOpen] = useState(false);
  const error = action.isError && <Alert>{errorMessage(action.error)}</Alert>;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) action.reset();
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent title={title} description={description}>
        {children}
        {error && (children ? <div className="mt-3">{error}</div> : error)}
        <DialogActions variant="danger" label={label} pendingLabel={pendingLabel} pending={action.isPending} onConfirm={() => onConfirm(() => setOpen(false))} />
      </DialogContent>
    </Dialog>
  );
}
