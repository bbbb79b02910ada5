"use client";

import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useRemoveMember } from "@/components/identity/queries";

export function RemoveMemberDialog({ team, username, isYou }: { team: string; username: string; isYou: boolean }) {
  const remove = useRemoveMember(team);
  return (
    <ConfirmDialog
      trigger={
        <Button variant="danger-ghost" size="sm" aria-label={`Remove ${username} from ${team}`}>
          {isYou ? "Leave" : "Remove"}
        </Button>
      }
      title={isYou ? `Leave ${team}?` : `Remove ${username} from ${team}?`}
      description={isYou ? "You lose access to the team's models, data and keys scoped to it." : `${username} loses access to ${team} at once. Their account and other teams are not affected.`}
      action={remove}
      label={isYou ? "Leave team" : "Remove member"}
      pendingLabel="Removing…"
      onConfirm={(close) => remove.mutate(username, { onSuccess: close })}
    />
  );
}
