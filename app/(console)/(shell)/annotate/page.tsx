import { PenLine } from "lucide-react";
import type { Metadata } from "next";
import { FeaturePlaceholder } from "@/components/shell/feature-placeholder";
import { requireConsoleSession } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Annotate" };
export const dynamic = "force-dynamic";

// The annotation area: the one place annotators work (and where members annotate too).
export default async function AnnotatePage() {
  const { workspace } = await requireConsoleSession();
  return (
    <FeaturePlaceholder
      icon={PenLine}
      title="Annotate"
      description={`Your annotation work in ${workspace.team}: one item at a time, keyboard first.`}
      emptyTitle="No items are waiting for you"
      emptyText="When a teammate adds calls to an annotation queue of this team, the next item that needs your judgement appears here. Nobody else gets the item while you work on it."
      features={[
        "The next unclaimed item, one at a time",
        "Read the conversation, score it, add a note",
        "Keyboard shortcuts for every action",
        "Skip an item and come back later",
      ]}
    />
  );
}
