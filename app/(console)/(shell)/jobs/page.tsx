import { ListChecks } from "lucide-react";
import type { Metadata } from "next";
import { FeaturePlaceholder } from "@/components/shell/feature-placeholder";
import { requestOrigin, requireTeamArea } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Jobs" };
export const dynamic = "force-dynamic";

export default async function JobsPage() {
  await requireTeamArea();
  const origin = await requestOrigin();
  return (
    <FeaturePlaceholder
      icon={ListChecks}
      title="Jobs"
      description="RL and SFT training jobs: queued, running and finished, with live loss and reward curves."
      emptyTitle="No training jobs yet"
      emptyText="Jobs start from the API today (RL from logged trajectory groups, SFT from conversations). This page will list them and stream their progress."
      features={[
        "Queue, running and finished jobs at a glance",
        "Live loss, reward and gradient-norm charts",
        "The event log of every step",
        "Cancel a job; retry a failed one",
      ]}
      snippet={{
        title: "List training jobs",
        code: `curl ${origin}/v1/preview/training-jobs \\
  -H "Authorization: Bearer $ANNEAL_API_KEY"`,
      }}
    />
  );
}
