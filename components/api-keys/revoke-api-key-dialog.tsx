"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTrigger, DialogActions } from "@/components/ui/dialog";
import { useRevokeApiKey, type ApiKey } from "@/components/identity/queries";
import { errorMessage } from "@/lib/client/api-fetch";

export function RevokeApiKeyDialog({ apiKey }: { apiKey: ApiKey }) {
  const [open, setOpen] = useState(false);
  const revoke = useRevokeApiKey();
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) revoke.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button variant="danger-ghost" size="sm" aria-label={`Revoke ${apiKey.name}`}>
          Revoke
        </Button>
      </DialogTrigger>
      <DialogContent title={`Revoke “${apiKey.name}”?`} description="Programs using this key are refused from the next request on. This cannot be undone.">
        <p className="text-sm text-zinc-600">
          Key <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs">{apiKey.prefix}…</code>
          {apiKey.team ? ` (only ${apiKey.team})` : " (all your teams)"}
        </p>
        {revoke.isError && (
          <div className="mt-3">
            <Alert>{errorMessage(revoke.error)}</Alert>
          </div>
        )}
        <DialogActions
          variant="danger"
          label="Revoke key"
          pendingLabel="Revoking…"
          pending={revoke.isPending}
          onConfirm={() => revoke.mutate(apiKey.id, { onSuccess: () => setOpen(false) })}
        />
      </DialogContent>
    </Dialog>
  );
}
