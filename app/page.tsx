import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { getAuthOptions } from "@/lib/auth/next-auth";

// Reads the session cookie: never prerendered (the build must not touch the database).
export const dynamic = "force-dynamic";

export default async function Home() {
  const session = await getServerSession(await getAuthOptions());
  if (!session?.user) redirect("/login");
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-2xl font-semibold tracking-tight">Welcome to Anneal, {session.user.name}</h1>
      <p className="mt-3 text-zinc-600">
        The API is live: its OpenAPI document is at{" "}
        <a className="font-medium text-brand-700 underline" href="/v1/openapi.json">
          /v1/openapi.json
        </a>
        . The console pages (playground, models, jobs, stats, queues, settings) are being built.
      </p>
    </main>
  );
}
