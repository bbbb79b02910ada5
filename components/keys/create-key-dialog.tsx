"use client";

import type { UseMutationResult } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { useState, type FormEvent, type ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions, DialogContent, DialogDone, DialogTrigger } from "@/components/ui/dialog";
import { Field, SelectField } from "@/components/ui/field";
import { ApiError, errorMessage } from "@/lib/client/api-fetch";

/** What both kinds of key are created from: a name, and a team's name to scope it (absent: all). */
export type KeyInput = { name: string; team?: string };

interface CreateKeyDialogProps<Created> {
  /** "API key", "worker key": the button's, the dialogs' and the reveal's titles name it. */
  noun: string;
  create: UseMutationResult<Created, Error, KeyInput>;
  namePlaceholder: string;
  /** The scope picker: the unscoped choice first, then "Only <team>" per team. */
  scope: { unscoped: string; teams: string[]; hint: string };
  /** The created key's secret and how to use it (shown once). */
  reveal: (created: Created) => ReactNode;
}

/** "Create …": name and team scope, then the secret, shown this once. */
export function CreateKeyDialog<Created>({ noun, create, namePlaceholder, scope, reveal }: CreateKeyDialogProps<Created>) {
  const [open, setOpen] = useState(false);
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
          <Plus /> Create {noun}
        </Button>
      </DialogTrigger>
      {create.isSuccess ? (
        <DialogContent title={`Your new ${noun}`} size="lg">
          {reveal(create.data)}
          <DialogDone />
        </DialogContent>
      ) : (
        <DialogContent title={`Create ${noun}`} description="The key is shown once, right after you create it.">
          <form onSubmit={onSubmit} className="space-y-4" noValidate>
            <Field
              label="Name"
              name="name"
              required
              maxLength={100}
              autoFocus
              placeholder={namePlaceholder}
              hint="What uses this key, so you recognise it later."
              error={nameError}
              onInput={() => setMissingName(false)}
            />
            <SelectField label="Scope" name="team" defaultValue="" error={fields.team} hint={scope.hint}>
              <option value="">{scope.unscoped}</option>
              {scope.teams.map((team) => (
                <option key={team} value={team}>
                  Only {team}
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
