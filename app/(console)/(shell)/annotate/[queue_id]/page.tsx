import type { Metadata } from "next";
import { Suspense } from "react";
import { AnnotateQueue } from "@/components/annotate/annotate-queue";
import { requireConsoleSession } from "@/lib/auth/console-session";

export const metadata: Metadata = { title: "Annotate" };
export const dynamic = "force-dynamic";

export default async function AnnotateQueuePage({ params }: { params: Promise<{ queue_id: string }> }) {
  const { me } = await requireConsoleSession();
  const { queue_id } = await params;
  // The item shown is read from the URL on the client (useSearchParams).
  return (
    <Suspense>
      <AnnotateQueue key={queue_id} queueId={queue_id} userId={me.user.id} />
    </Suspense>
  );
}
