import type { Metadata } from "next";
import { QueueList } from "@/components/annotate/queue-list";
import { PageHeader } from "@/components/ui/page-header";
import { requireConsoleSession } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Annotate" };
export const dynamic = "force-dynamic";

// The annotation area: the one place annotators work (and where members annotate too).
export default async function AnnotatePage() {
  await requireConsoleSession();
  return (
    <>
      <PageHeader title="Annotate" description="Your annotation queues: one item at a time, keyboard first (press ? on an item for the keys)." />
      <QueueList />
    </>
  );
}
