import type { Metadata } from "next";
import { Suspense } from "react";
import { LoginForm } from "@/components/login-form";

export const metadata: Metadata = { title: "Sign in" };

export default function LoginPage() {
  return (
    <main className="flex min-h-full items-center justify-center px-4 py-16">
      <div className="w-full max-w-sm">
        <div className="mb-8 text-center">
          <div className="mx-auto mb-4 flex h-11 w-11 items-center justify-center rounded-xl bg-brand-600 text-lg font-bold text-white">
            A
          </div>
          <h1 className="text-2xl font-semibold tracking-tight">Sign in to Anneal</h1>
          <p className="mt-2 text-sm text-zinc-600">Train, serve and judge language models.</p>
        </div>
        <Suspense>
          <LoginForm />
        </Suspense>
        <p className="mt-6 text-center text-xs leading-relaxed text-zinc-500">
          First start? The admin login is printed by <code className="font-mono">npm start</code>, or set with{" "}
          <code className="font-mono">ANNEAL_ADMIN_EMAIL</code> and <code className="font-mono">ANNEAL_ADMIN_PASSWORD</code>.
        </p>
      </div>
    </main>
  );
}
