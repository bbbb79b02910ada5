"use client";

import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useRevokeApiKey, type ApiKey } from "@/components/identity/queries";
import { KeyPrefix } from "@/components/keys/key-cells";

export function RevokeApiKeyDialog({ apiKey }: { apiKey: ApiKey }) {
  const revoke = useRevokeApiKey();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="danger-ghost" size="sm" aria-label={`Revoke ${apiKey.name}`}>
          Revoke
        </Button>
      }
      title={`Revoke “${apiKey.name}”?`}
      description="Programs using this key are refused from the next request on. This cannot be undone."
      action={revoke}
      label="Revoke key"
      pendingLabel="Revoking…"
      onConfirm={(close) => revoke.mutate(apiKey.id, { onSuccess: close })}
    >
      <p className="text-sm text-zinc-600">
        Key <KeyPrefix prefix={apiKey.prefix} />
        {apiKey.team ? ` (only ${apiKey.team})` : " (all your teams)"}
      </p>
    </ConfirmDialog>
  );
}
