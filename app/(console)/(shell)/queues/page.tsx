import { Inbox } from "lucide-react";
import type { Metadata } from "next";
import { FeaturePlaceholder } from "@/components/shell/feature-placeholder";
import { projectRef, requireTeamArea } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Queues" };
export const dynamic = "force-dynamic";

export default async function QueuesPage() {
  const session = await requireTeamArea();
  return (
    <FeaturePlaceholder
      icon={Inbox}
      title="Annotation queues"
      description="Collect human judgement on recorded calls: pick calls, decide how many annotations each needs, and follow the progress."
      emptyTitle={`No queues in ${projectRef(session)} yet`}
      emptyText="Queues will be created here and filled with calls from the call log. Annotators of this team work through them in the Annotate area."
      features={[
        "Create a queue with the scores to collect",
        "Add calls from the call log, skipping duplicates",
        "Annotations needed per item",
        "Progress per annotator",
      ]}
      links={[{ href: "/annotate", label: "Open the annotation area" }]}
    />
  );
}
