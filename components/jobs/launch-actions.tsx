"use client";

import type { ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { DialogActions } from "@/components/ui/dialog";

/** A launch form's foot: why the job (or run) was not started, if it was not, and its submit button. */
export function LaunchActions({ error, label, pending, what = "job", pendingLabel = "Starting…" }: { error?: ReactNode; label: string; pending: boolean; what?: "job" | "run"; pendingLabel?: string }) {
  return (
    <>
      {error && <Alert title={`The ${what} was not started`}>{error}</Alert>}
      <DialogActions label={label} pendingLabel={pendingLabel} pending={pending} />
    </>
  );
}
