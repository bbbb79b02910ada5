import type { Metadata } from "next";
import { UsageView } from "@/components/usage/usage-view";
import { PageHeader } from "@/components/ui/page-header";
import { requireTeamArea } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Stats" };
export const dynamic = "force-dynamic";

export default async function StatsPage() {
  await requireTeamArea();
  return (
    <>
      <PageHeader title="Stats" description="Inference usage per project: requests and tokens by day, from every recorded chat completion." />
      <UsageView />
    </>
  );
}
