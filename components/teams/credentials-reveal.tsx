"use client";

import { Alert } from "@/components/ui/alert";
import { CopyButton } from "@/components/ui/copy-button";

/** A created user's sign-in details, for the admin to pass on (the password is shown this once). */
export function CredentialsReveal({ username, password, generated }: { username: string; password?: string; generated: boolean }) {
  const signInUrl = typeof window === "undefined" ? "/login" : `${window.location.origin}/login`;
  const message = `Sign in to Anneal at ${signInUrl}\nUsername: ${username}${password ? `\nPassword: ${password}` : ""}\nThen change your password in Settings → Account.`;
  return (
    <div className="space-y-4">
      {generated ? (
        <Alert tone="warning" title="Copy the password now">
          Anneal generated it and will not show it again. Send it to {username} over a private channel.
        </Alert>
      ) : (
        <Alert tone="info">They sign in with the password you chose.</Alert>
      )}
      <dl className="grid grid-cols-[7rem_minmax(0,1fr)] items-center gap-x-3 gap-y-2 rounded-lg border border-zinc-200 bg-zinc-50 p-3 text-sm">
        <dt className="text-zinc-500">Sign-in page</dt>
        <dd className="truncate font-mono text-[13px]">{signInUrl}</dd>
        <dt className="text-zinc-500">Username</dt>
        <dd className="font-mono text-[13px]">{username}</dd>
        {password && generated && (
          <>
            <dt className="text-zinc-500">Password</dt>
            <dd className="font-mono text-[13px] break-all" data-testid="new-user-password">
              {password}
            </dd>
          </>
        )}
      </dl>
      <CopyButton value={message} label="Copy sign-in details" />
    </div>
  );
}
