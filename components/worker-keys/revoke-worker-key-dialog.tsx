"use client";

import { KeyPrefix } from "@/components/keys/key-cells";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useRevokeWorkerKey, type WorkerKey } from "@/components/worker-keys/queries";

export function RevokeWorkerKeyDialog({ workerKey }: { workerKey: WorkerKey }) {
  const revoke = useRevokeWorkerKey();
  const online = workerKey.workers.length;
  return (
    <ConfirmDialog
      trigger={
        <Button variant="danger-ghost" size="sm" aria-label={`Revoke ${workerKey.name}`}>
          Revoke
        </Button>
      }
      title={`Revoke “${workerKey.name}”?`}
      description="Its workers are refused from their next call, and its leases expire at once: other workers take over the jobs it held. This cannot be undone."
      action={revoke}
      label="Revoke key"
      pendingLabel="Revoking…"
      onConfirm={(close) => revoke.mutate(workerKey.id, { onSuccess: close })}
    >
      <p className="text-sm text-zinc-600">
        Key <KeyPrefix prefix={workerKey.prefix} />
        {workerKey.team ? ` (only ${workerKey.team}'s jobs)` : " (any team's jobs)"}
        {online > 0 && `, ${online} ${online === 1 ? "worker" : "workers"} online now`}
      </p>
    </ConfirmDialog>
  );
}
