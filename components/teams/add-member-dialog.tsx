"use client";

import { UserPlus } from "lucide-react";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTrigger, DialogActions, DialogDone } from "@/components/ui/dialog";
import { Field, SelectField } from "@/components/ui/field";
import { Segmented } from "@/components/ui/segmented";
import { ROLE_HELP, ROLE_LABEL } from "@/components/identity/role-badge";
import { useAddMember, type Role } from "@/components/identity/queries";
import { CredentialsReveal } from "@/components/teams/credentials-reveal";
import { ApiError, errorMessage } from "@/lib/client/api-fetch";

type Mode = "new" | "existing";
const MODES = [
  { value: "new", label: "New user" },
  { value: "existing", label: "Existing user" },
] as const;
const ROLES: Role[] = ["member", "annotator", "admin"];

/** Team admins add an existing user by username, or create a user (username, email, password). */
export function AddMemberDialog({ team }: { team: string }) {
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<Mode>("new");
  const [role, setRole] = useState<Role>("member");
  const add = useAddMember(team);
  const fields = add.error instanceof ApiError ? add.error.fields : {};
  const [given, setGiven] = useState<{ username: string; password?: string } | null>(null);

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      add.reset();
      setGiven(null);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const username = text("username");
    const password = String(form.get("password") ?? "");
    const body = mode === "new" ? { username, role, email: text("email"), ...(password ? { password } : {}) } : { username, role };
    add.mutate(body, {
      onSuccess: (result) => {
        if (result.created_user) setGiven({ username, password: result.password ?? (password || undefined) });
        else onOpenChange(false);
      },
    });
  }

  const done = add.isSuccess && given;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button size="sm">
          <UserPlus /> Add member
        </Button>
      </DialogTrigger>
      {done ? (
        <DialogContent title={`${given.username} was added to ${team}`} size="lg">
          <CredentialsReveal username={given.username} password={given.password} generated={Boolean(add.data.password)} />
          <DialogDone />
        </DialogContent>
      ) : (
        <DialogContent title={`Add a member to ${team}`} description="Members act with their role in this team only.">
          <form onSubmit={onSubmit} className="space-y-4" noValidate>
            <Segmented variant="subtle" size="md" fill aria-label="Who to add" options={MODES} value={mode} onChange={setMode} />
            <Field
              label="Username"
              name="username"
              required
              autoFocus
              autoComplete="off"
              placeholder={mode === "new" ? "e.g. alice" : "Their username"}
              error={fields.username}
              hint={mode === "new" ? "Letters, digits, . _ - ; also the name of their personal team." : undefined}
            />
            {mode === "new" && (
              <>
                <Field label="Email" name="email" type="email" required autoComplete="off" placeholder="alice@example.com" error={fields.email} />
                <Field
                  label="Initial password"
                  name="password"
                  type="password"
                  autoComplete="new-password"
                  minLength={8}
                  error={fields.password}
                  hint="Optional. Leave empty to generate one; you see it once, to pass on. They can change it in Settings → Account."
                />
              </>
            )}
            <SelectField label="Role" name="role" value={role} onChange={(event) => setRole(event.target.value as Role)} error={fields.role} hint={ROLE_HELP[role]}>
              {ROLES.map((value) => (
                <option key={value} value={value}>
                  {ROLE_LABEL[value]}
                </option>
              ))}
            </SelectField>
            {add.isError && Object.keys(fields).length === 0 && <Alert>{errorMessage(add.error)}</Alert>}
            <DialogActions label={mode === "new" ? "Create and add" : "Add member"} pendingLabel="Adding…" pending={add.isPending} />
          </form>
        </DialogContent>
      )}
    </Dialog>
  );
}
