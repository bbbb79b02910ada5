import type { Metadata } from "next";
import { QueueDetailView } from "@/components/queues/queue-detail-view";
import { projectRef, requireTeamArea } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Queue" };
export const dynamic = "force-dynamic";

export default async function QueuePage({ params }: { params: Promise<{ queue_id: string }> }) {
  const session = await requireTeamArea();
  const { queue_id } = await params;
  return <QueueDetailView key={queue_id} queueId={queue_id} team={session.workspace.team} defaultProject={projectRef(session)} />;
}
