import { cache } from "react";
import { getServerSession } from "next-auth";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { describeCaller } from "@/lib/auth/me";
import { getAuthOptions } from "@/lib/auth/next-auth";
import type { Principal } from "@/lib/auth/principal";
import { getWorkspace } from "@/lib/auth/workspace";
import { getDb } from "@/lib/db/client";

// Server components only: the signed-in console user, their identity (as GET /v1/me returns it)
// and workspace, read once per request (React `cache`). null when signed out or when the session
// names a user that no longer exists.

export const getConsoleSession = cache(async () => {
  const session = await getServerSession(await getAuthOptions());
  const userId = session?.user?.id;
  if (!userId) return null;
  const user = await getDb().user.findUnique({
    where: { id: userId },
    select: { id: true, username: true, email: true, isAdmin: true },
  });
  if (!user) return null;
  const principal: Principal = { user, via: "session" };
  const [me, workspace] = await Promise.all([describeCaller(principal), getWorkspace(principal)]);
  return { principal, me, workspace };
});

export type ConsoleSession = NonNullable<Awaited<ReturnType<typeof getConsoleSession>>>;

/** Someone has signed in to the console before (else the login page explains the first sign-in). */
export async function hasAnyoneSignedIn(): Promise<boolean> {
  return (await getDb().user.count({ where: { lastLoginAt: { not: null } } })) > 0;
}

/** The signed-in user, or a redirect to the sign-in page. */
export async function requireConsoleSession(): Promise<ConsoleSession> {
  const session = await getConsoleSession();
  if (!session) redirect("/login");
  return session;
}

/** Pages of the team's work (everything but annotation and one's account): annotators go to /annotate. */
export async function requireTeamArea(): Promise<ConsoleSession> {
  const session = await requireConsoleSession();
  if (session.workspace.role === "annotator") redirect("/annotate");
  return session;
}

/** `team/project` of the console's workspace. */
export const projectRef = (session: ConsoleSession) => `${session.workspace.team}/${session.workspace.project}`;

/** This request's origin as the browser sees it (for copy-paste examples). */
export async function requestOrigin(): Promise<string> {
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost:3000";
  const proto = h.get("x-forwarded-proto") ?? "http";
  return `${proto}://${host}`;
}
