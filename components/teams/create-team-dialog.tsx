"use client";

import { Plus } from "lucide-react";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTrigger, DialogActions } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { useCreateTeam } from "@/components/identity/queries";
import { ApiError, errorMessage } from "@/lib/client/api-fetch";

/** Instance admins create teams; they become the team's first admin. */
export function CreateTeamDialog({ onCreated }: { onCreated: (name: string) => void }) {
  const [open, setOpen] = useState(false);
  const create = useCreateTeam();
  const [missingName, setMissingName] = useState(false);
  const fields = create.error instanceof ApiError ? create.error.fields : {};

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    setMissingName(!name);
    if (!name) return;
    create.mutate(name, {
      onSuccess: (team) => {
        setOpen(false);
        onCreated(team.name);
      },
    });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          create.reset();
          setMissingName(false);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <Plus /> Create team
        </Button>
      </DialogTrigger>
      <DialogContent title="Create team" description="You become its first admin and can then add members.">
        <form onSubmit={onSubmit} className="space-y-4" noValidate>
          <Field
            label="Team name"
            name="name"
            required
            autoFocus
            placeholder="e.g. research"
            hint="Letters, digits, . _ - — it appears in project names like research/default."
            error={missingName ? "Give the team a name." : fields.name}
            onInput={() => setMissingName(false)}
          />
          {create.isError && !fields.name && <Alert>{errorMessage(create.error)}</Alert>}
          <DialogActions label="Create team" pendingLabel="Creating…" pending={create.isPending} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
