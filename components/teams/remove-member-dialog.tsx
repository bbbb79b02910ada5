"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTrigger, DialogActions } from "@/components/ui/dialog";
import { useRemoveMember } from "@/components/identity/queries";
import { errorMessage } from "@/lib/client/api-fetch";

export function RemoveMemberDialog({ team, username, isYou }: { team: string; username: string; isYou: boolean }) {
  const [open, setOpen] = useState(false);
  const remove = useRemoveMember(team);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) remove.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button variant="danger-ghost" size="sm" aria-label={`Remove ${username} from ${team}`}>
          {isYou ? "Leave" : "Remove"}
        </Button>
      </DialogTrigger>
      <DialogContent
        title={isYou ? `Leave ${team}?` : `Remove ${username} from ${team}?`}
        description={isYou ? "You lose access to the team's models, data and keys scoped to it." : `${username} loses access to ${team} at once. Their account and other teams are not affected.`}
      >
        {remove.isError && <Alert>{errorMessage(remove.error)}</Alert>}
        <DialogActions
          variant="danger"
          label={isYou ? "Leave team" : "Remove member"}
          pendingLabel="Removing…"
          pending={remove.isPending}
          onConfirm={() => remove.mutate(username, { onSuccess: () => setOpen(false) })}
        />
      </DialogContent>
    </Dialog>
  );
}
