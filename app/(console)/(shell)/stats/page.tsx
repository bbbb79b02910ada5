import { BarChart3 } from "lucide-react";
import type { Metadata } from "next";
import { FeaturePlaceholder } from "@/components/shell/feature-placeholder";
import { projectRef, requestOrigin, requireTeamArea } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Stats" };
export const dynamic = "force-dynamic";

export default async function StatsPage() {
  const session = await requireTeamArea();
  const origin = await requestOrigin();
  return (
    <FeaturePlaceholder
      icon={BarChart3}
      title="Stats"
      description="Usage and feedback over time: requests, tokens and latency per model, and the scores your users and annotators give."
      emptyTitle="Nothing to chart yet"
      emptyText={`Charts fill in as ${projectRef(session)} receives chat completions and feedback.`}
      features={[
        "Requests, tokens and latency by model",
        "Feedback scores over time, by percentile",
        "Compare checkpoints on the same metric",
        "Pick any time range and time zone",
      ]}
      snippet={{
        title: "Record feedback on a call",
        code: `curl ${origin}/feedback/replace \\
  -u "api:$ANNEAL_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{
    "project_id": "${projectRef(session)}",
    "feedback_id": "<any id>",
    "svc_ref": "svc:///${projectRef(session)}/call/<call_id>",
    "feedback_type": "thumbs",
    "payload": {"value": true}
  }'`,
      }}
    />
  );
}
