import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { Suspense } from "react";
import { FirstRunNotice } from "@/components/first-run-notice";
import { LoginForm } from "@/components/login-form";
import { getConsoleSession, hasAnyoneSignedIn } from "@/lib/auth/console-session";
import { getEnv } from "@/lib/config/env";

export const metadata: Metadata = { title: "Sign in" };
// Reads the session and the database: never prerendered.
export const dynamic = "force-dynamic";

export default async function LoginPage() {
  if (await getConsoleSession()) redirect("/");
  const firstRun = !(await hasAnyoneSignedIn());
  const env = getEnv();
  return (
    <main className="flex min-h-full items-center justify-center bg-[radial-gradient(ellipse_at_top,_var(--color-brand-50),_transparent_60%)] px-4 py-16">
      <div className="w-full max-w-sm">
        <div className="mb-8 text-center">
          <div className="mx-auto mb-4 flex h-11 w-11 items-center justify-center rounded-xl bg-gradient-to-br from-brand-500 to-brand-700 text-lg font-bold text-white shadow-sm">
            A
          </div>
          <h1 className="text-2xl font-semibold tracking-tight">Sign in to Anneal</h1>
          <p className="mt-2 text-sm text-zinc-600">Serve, judge and train language models.</p>
        </div>
        {firstRun && (
          <FirstRunNotice
            username={env.ANNEAL_ADMIN_USERNAME}
            email={env.ANNEAL_ADMIN_EMAIL ?? "admin@anneal.local"}
            passwordFromEnv={Boolean(env.ANNEAL_ADMIN_PASSWORD)}
          />
        )}
        <Suspense>
          <LoginForm />
        </Suspense>
        {!firstRun && (
          <p className="mt-6 text-center text-xs leading-relaxed text-zinc-500">
            Forgot your password? Ask a team admin, or the operator runs{" "}
            <code className="font-mono">npm run anneal -- reset-password --email &lt;you&gt;</code>.
          </p>
        )}
      </div>
    </main>
  );
}
