import type { Metadata } from "next";
import { RlRunView } from "@/components/rl-runs/rl-run-view";
import { requireTeamArea } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "RL run" };
export const dynamic = "force-dynamic";

export default async function RlRunPage({ params }: { params: Promise<{ rl_run_id: string }> }) {
  await requireTeamArea();
  const { rl_run_id } = await params;
  return <RlRunView key={rl_run_id} runId={rl_run_id} />;
}
