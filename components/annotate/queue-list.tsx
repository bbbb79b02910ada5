"use client";

import { Inbox, Play } from "lucide-react";
import Link from "next/link";
import { useQueues, useQueueStats, type QueueDto } from "@/components/annotate/queries";
import { useMe } from "@/components/identity/queries";
import { QueueProgress } from "@/components/queues/queue-progress";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Panel } from "@/components/ui/panel";
import { QueryError } from "@/components/ui/query-error";
import { TableSkeleton } from "@/components/ui/skeleton";

// /annotate: the queues the caller reaches in any of their teams (an annotator: the ones assigned
// to them; members and admins: all of their teams'), each with its progress, the start of its instructions,
// and Start (nothing done by me yet) or Resume.

const PREVIEW_CHARS = 220;
const preview = (text: string) => (text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS).trimEnd()}…` : text);

function QueueRow({ queue, userId }: { queue: QueueDto; userId: string | undefined }) {
  const stats = useQueueStats(queue.id);
  const mine = stats.data?.annotators.find((a) => a.user_id === userId);
  const myDone = mine ? mine.completed + mine.skipped : undefined;
  const { total, remaining } = queue.counts;
  const started = (myDone ?? 0) > 0 || (mine?.in_progress ?? 0) > 0;
  // Nothing left to resume in a finished queue: it opens on "Queue done", whence Back reviews.
  const action = remaining === 0 ? "Open" : started ? "Resume" : "Start";
  return (
    <li data-testid="queue-row" data-queue-id={queue.id} className="flex flex-col gap-3 px-4 py-4 sm:flex-row sm:items-center sm:gap-6">
      <div className="min-w-0 flex-1 space-y-2">
        <div>
          <h2 className="text-sm font-semibold text-zinc-900">
            {queue.name} <span className="ml-1 font-mono text-xs font-normal text-zinc-400">{queue.project}</span>
          </h2>
          {queue.instructions && <p className="mt-0.5 line-clamp-2 text-sm whitespace-pre-line text-zinc-500">{preview(queue.instructions)}</p>}
        </div>
        <QueueProgress counts={queue.counts} label={`Progress of ${queue.name}`} />
        <p className="text-xs text-zinc-500 tabular-nums" data-testid="queue-progress">
          {myDone !== undefined && <>{myDone} done by you · </>}
          {remaining} remaining · {total} total
        </p>
      </div>
      <Button asChild variant={remaining === 0 ? "secondary" : "primary"} size="sm">
        <Link href={`/annotate/${queue.id}`} aria-label={`${action} ${queue.name}`}>
          <Play aria-hidden />
          {action}
        </Link>
      </Button>
    </li>
  );
}

export function QueueList() {
  const queues = useQueues();
  const me = useMe();
  if (queues.isPending) return <Panel><TableSkeleton label="Loading queues" /></Panel>;
  if (queues.isError) return <Panel><QueryError what="your queues" error={queues.error} retry={() => void queues.refetch()} /></Panel>;
  if (queues.data.length === 0) {
    return (
      <Panel>
        <EmptyState icon={Inbox} title="No queues for you yet">
          When a teammate assigns you an annotation queue, it appears here with its instructions and progress.
        </EmptyState>
      </Panel>
    );
  }
  return (
    <Panel>
      <ul className="divide-y divide-zinc-100" aria-label="Annotation queues">
        {queues.data.map((queue) => (
          <QueueRow key={queue.id} queue={queue} userId={me.data?.user.id} />
        ))}
      </ul>
    </Panel>
  );
}
