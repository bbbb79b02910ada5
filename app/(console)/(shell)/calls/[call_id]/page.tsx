import type { Metadata } from "next";
import { CallView } from "@/components/calls/call-view";
import { requireTeamArea } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Call" };
export const dynamic = "force-dynamic";

export default async function CallPage({ params }: { params: Promise<{ call_id: string }> }) {
  await requireTeamArea();
  const { call_id } = await params;
  // Keyed by call: drafts (a note, an annotation) start from nothing for another call.
  return <CallView key={call_id} callId={call_id} />;
}
