"use client";

import { Plus } from "lucide-react";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTrigger, DialogActions, DialogDone } from "@/components/ui/dialog";
import { Field, SelectField } from "@/components/ui/field";
import { NewKeyReveal } from "@/components/api-keys/new-key-reveal";
import { useCreateApiKey, useMe } from "@/components/identity/queries";
import { ApiError, errorMessage } from "@/lib/client/api-fetch";

/** "Create API key": name and team scope, then the secret, shown this once. */
export function CreateApiKeyDialog({ origin }: { origin: string }) {
  const [open, setOpen] = useState(false);
  const create = useCreateApiKey();
  const { data: me } = useMe();
  const [missingName, setMissingName] = useState(false);
  const fields = create.error instanceof ApiError ? create.error.fields : {};
  const nameError = missingName ? "Give the key a name, e.g. what uses it." : fields.name;

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      create.reset(); // the secret leaves memory with the dialog
      setMissingName(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const team = String(form.get("team") ?? "");
    const name = String(form.get("name") ?? "").trim();
    setMissingName(!name);
    if (!name) return;
    create.mutate({ name, ...(team ? { team } : {}) });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <Plus /> Create API key
        </Button>
      </DialogTrigger>
      {create.isSuccess ? (
        <DialogContent title="Your new API key" size="lg">
          <NewKeyReveal apiKey={create.data} origin={origin} />
          <DialogDone />
        </DialogContent>
      ) : (
        <DialogContent title="Create API key" description="The key is shown once, right after you create it.">
          <form onSubmit={onSubmit} className="space-y-4" noValidate>
            <Field
              label="Name"
              name="name"
              required
              maxLength={100}
              autoFocus
              placeholder="e.g. training-runner"
              hint="What uses this key, so you recognise it later."
              error={nameError}
              onInput={() => setMissingName(false)}
            />
            <SelectField label="Scope" name="team" defaultValue="" error={fields.team} hint="A team-scoped key cannot reach your other teams.">
              <option value="">All my teams</option>
              {me?.teams.map((team) => (
                <option key={team.id} value={team.name}>
                  Only {team.name}
                </option>
              ))}
            </SelectField>
            {create.isError && Object.keys(fields).length === 0 && <Alert>{errorMessage(create.error)}</Alert>}
            <DialogActions label="Create key" pendingLabel="Creating…" pending={create.isPending} />
          </form>
        </DialogContent>
      )}
    </Dialog>
  );
}
