"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { useChangePassword } from "@/components/identity/queries";
import { ApiError, errorMessage } from "@/lib/client/api-fetch";

export function ChangePasswordForm({ username }: { username: string }) {
  const change = useChangePassword();
  const [mismatch, setMismatch] = useState(false);
  const fields = change.error instanceof ApiError ? change.error.fields : {};

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const next = String(form.get("new_password") ?? "");
    if (next !== String(form.get("confirm") ?? "")) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    change.mutate(
      { current_password: String(form.get("current_password") ?? ""), new_password: next },
      { onSuccess: () => formElement.reset() },
    );
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4 p-4" noValidate>
      {/* Lets password managers file the new password under the right account. */}
      <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
      <Field label="Current password" name="current_password" type="password" autoComplete="current-password" required error={fields.current_password} />
      <Field
        label="New password"
        name="new_password"
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        hint="At least 8 characters."
        error={fields.new_password}
      />
      <Field
        label="Confirm new password"
        name="confirm"
        type="password"
        autoComplete="new-password"
        required
        error={mismatch ? "The two new passwords differ." : undefined}
        onInput={() => setMismatch(false)}
      />
      {change.isError && Object.keys(fields).length === 0 && <Alert>{errorMessage(change.error)}</Alert>}
      {change.isSuccess && (
        <Alert tone="info" title="Password changed">
          Use the new password the next time you sign in.
        </Alert>
      )}
      <div className="flex justify-end">
        <Button type="submit" disabled={change.isPending}>
          {change.isPending ? "Saving…" : "Change password"}
        </Button>
      </div>
    </form>
  );
}
