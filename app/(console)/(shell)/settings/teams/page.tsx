import type { Metadata } from "next";
import { TeamsPanel } from "@/components/teams/teams-panel";
import { requireTeamArea } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Teams and members" };
export const dynamic = "force-dynamic";

export default async function TeamsPage() {
  await requireTeamArea();
  return <TeamsPanel />;
}
