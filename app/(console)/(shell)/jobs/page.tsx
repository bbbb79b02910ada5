import type { Metadata } from "next";
import { JobsView } from "@/components/jobs/jobs-view";
import { requestOrigin, requireTeamArea } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Jobs" };
export const dynamic = "force-dynamic";

export default async function JobsPage() {
  await requireTeamArea();
  return <JobsView origin={await requestOrigin()} />;
}
