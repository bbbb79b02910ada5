"use client";

import * as DialogPrimitive from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";

// Radix Dialog with Anneal's look: focus is trapped inside, Escape and the close button close it,
// and focus returns to the trigger.

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

interface DialogContentProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** Wider dialogs for content like a new key. */
  size?: "md" | "lg";
}

export function DialogContent({ title, description, children, size = "md" }: DialogContentProps) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-zinc-950/40 backdrop-blur-[1px] data-[state=open]:animate-[fade-in_120ms_ease-out]" />
      <DialogPrimitive.Content
        className={`fixed top-[12vh] left-1/2 z-50 max-h-[86vh] w-[calc(100vw-2rem)] -translate-x-1/2 overflow-y-auto rounded-xl border border-zinc-200 bg-white shadow-xl focus:outline-none data-[state=open]:animate-[dialog-in_140ms_ease-out] ${size === "lg" ? "max-w-xl" : "max-w-md"}`}
      >
        <div className="flex items-start justify-between gap-4 border-b border-zinc-100 px-5 py-4">
          <div>
            <DialogPrimitive.Title className="text-base font-semibold text-zinc-900">{title}</DialogPrimitive.Title>
            {description ? (
              <DialogPrimitive.Description className="mt-1 text-sm text-zinc-500">{description}</DialogPrimitive.Description>
            ) : (
              <DialogPrimitive.Description className="sr-only">{title}</DialogPrimitive.Description>
            )}
          </div>
          <DialogPrimitive.Close
            className="-mr-1 rounded-md p-1 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-700 focus-visible:outline-2 focus-visible:outline-zinc-500"
            aria-label="Close"
          >
            <X className="size-4" />
          </DialogPrimitive.Close>
        </div>
        <div className="px-5 py-4">{children}</div>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogFooter({ children }: { children: ReactNode }) {
  return <div className="-mx-5 mt-5 -mb-4 flex justify-end gap-2 rounded-b-xl border-t border-zinc-100 bg-zinc-50/70 px-5 py-3">{children}</div>;
}

export interface DialogActionsProps {
  label: string;
  pendingLabel: string;
  pending: boolean;
  variant?: "primary" | "danger";
  /** A confirm button's action; without it the button submits the dialog's form. */
  onConfirm?: () => void;
}

/** Cancel, then the dialog's one action (disabled and relabelled while it runs). */
export function DialogActions({ label, pendingLabel, pending, variant = "primary", onConfirm }: DialogActionsProps) {
  return (
    <DialogFooter>
      <DialogClose asChild>
        <Button variant="secondary">Cancel</Button>
      </DialogClose>
      <Button type={onConfirm ? "button" : "submit"} variant={variant} disabled={pending} onClick={onConfirm}>
        {pending ? pendingLabel : label}
      </Button>
    </DialogFooter>
  );
}

/** The single "Done" that closes a dialog showing a result (e.g. a secret shown once). */
export function DialogDone() {
  return (
    <DialogFooter>
      <DialogClose asChild>
        <Button>Done</Button>
      </DialogClose>
    </DialogFooter>
  );
}
