import type { Metadata } from "next";
import { FeedbackStatsView } from "@/components/feedback/feedback-stats-view";
import { UsageView } from "@/components/usage/usage-view";
import { PageHeader } from "@/components/ui/page-header";
import { requireTeamArea } from "@/lib/auth/console-session";
import { panelId, StatsTabs, tabId, type StatsTab } from "./stats-tabs";

export const metadata: Metadata = { title: "Stats" };
export const dynamic = "force-dynamic";

const DESCRIPTIONS: Record<StatsTab, string> = {
  usage: "Inference usage per project: requests and tokens by day, from every recorded chat completion.",
  feedback: "Feedback per project over time: counts, and aggregations and percentiles of payload values, by bucket.",
};

export default async function StatsPage({ searchParams }: { searchParams: Promise<{ tab?: string | string[] }> }) {
  await requireTeamArea();
  const tab: StatsTab = (await searchParams).tab === "feedback" ? "feedback" : "usage";
  return (
    <>
      <PageHeader title="Stats" description={DESCRIPTIONS[tab]} />
      <StatsTabs active={tab} />
      <div role="tabpanel" id={panelId(tab)} aria-labelledby={tabId(tab)}>
        {tab === "feedback" ? (
          // Not in a Suspense boundary, which would hydrate after the shell and render the project
          // list the shell fetched meanwhile, unlike the server (React error #418; calls/page.tsx).
          <FeedbackStatsView />
        ) : (
          <UsageView />
        )}
      </div>
    </>
  );
}
