import { Sparkles } from "lucide-react";

/** Shown on the sign-in page until someone has signed in: how the instance admin gets in. */
export function FirstRunNotice({ username, email, passwordFromEnv }: { username: string; email: string; passwordFromEnv: boolean }) {
  return (
    <section aria-labelledby="first-run-title" className="mb-4 rounded-xl border border-brand-200 bg-brand-50/70 p-4 text-sm text-zinc-700">
      <h2 id="first-run-title" className="flex items-center gap-2 font-semibold text-zinc-900">
        <Sparkles className="size-4 text-brand-600" aria-hidden />
        Welcome to your new Anneal
      </h2>
      <p className="mt-2 leading-relaxed">
        Sign in as the instance admin: username <code className="rounded bg-white/80 px-1 font-mono text-[12px]">{username}</code> or{" "}
        <code className="rounded bg-white/80 px-1 font-mono text-[12px]">{email}</code>, with{" "}
        {passwordFromEnv ? (
          <>
            the password set in <code className="font-mono text-[12px]">ANNEAL_ADMIN_PASSWORD</code>.
          </>
        ) : (
          <>the password printed once in the terminal where <code className="font-mono text-[12px]">npm start</code> first ran.</>
        )}
      </p>
      <p className="mt-2 text-xs leading-relaxed text-zinc-500">
        Lost it? Stop the server and run{" "}
        <code className="font-mono">npm run anneal -- reset-password --email {email}</code>; it prints a new one.
      </p>
    </section>
  );
}
