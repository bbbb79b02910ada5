import type { Metadata } from "next";
import { CallsView } from "@/components/calls/calls-view";
import { requestOrigin, requireTeamArea } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Calls" };
export const dynamic = "force-dynamic";

export default async function CallsPage() {
  await requireTeamArea();
  // No Suspense boundary around the view: one would hydrate after the shell, and data the shell's
  // queries fetched meanwhile (the project list) would render at hydration unlike on the server
  // (React error #418). Rendered per request, useSearchParams needs none.
  return <CallsView origin={await requestOrigin()} />;
}
