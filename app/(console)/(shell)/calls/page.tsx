import type { Metadata } from "next";
import { Suspense } from "react";
import { CallsView } from "@/components/calls/calls-view";
import { requestOrigin, requireTeamArea } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Calls" };
export const dynamic = "force-dynamic";

export default async function CallsPage() {
  await requireTeamArea();
  // The filters are read from the URL on the client (useSearchParams).
  return (
    <Suspense>
      <CallsView origin={await requestOrigin()} />
    </Suspense>
  );
}
