import type { Metadata } from "next";
import { QueuesView } from "@/components/queues/queues-view";
import { projectRef, requireTeamArea } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Queues" };
export const dynamic = "force-dynamic";

export default async function QueuesPage() {
  const session = await requireTeamArea();
  return <QueuesView team={session.workspace.team} project={projectRef(session)} />;
}
