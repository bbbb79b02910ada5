"use client";

import { ArrowLeft, PartyPopper } from "lucide-react";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { ItemScreen } from "@/components/annotate/item-screen";
import { useDoneItems, useItem, useNextItem, useQueue, type QueueDto } from "@/components/annotate/queries";
import { ShortcutsDialog } from "@/components/annotate/shortcuts-dialog";
import { useAnnotateShortcuts } from "@/components/annotate/use-annotate-shortcuts";
import { Kbd } from "@/components/playground/kbd";
import { QueueProgress } from "@/components/queues/queue-progress";
import { Button } from "@/components/ui/button";
import { DetailHeader, DetailLoadError, DetailSkeleton } from "@/components/ui/detail-page";
import { EmptyState } from "@/components/ui/empty-state";
import { Panel } from "@/components/ui/panel";

// /annotate/{queue_id}: the focused one-item screen. Without `?item=` it shows the caller's claim
// ("next item for me" answers one's live claim first, so a reload resumes the same item); with it,
// one of the caller's submitted items, reached with Back to edit. Back and Forward step through
// one's submitted items in queue order, Forward from the last returns to the claim.

const NOT_FOUND = { title: "Queue not found", reason: "It was deleted, or it is not assigned to you.", href: "/annotate", link: "Your queues" };

function QueueDone({ queue, onBack }: { queue: QueueDto; onBack?: () => void }) {
  const [helpOpen, setHelpOpen] = useState(false);
  useAnnotateShortcuts({ previousItem: onBack, help: () => setHelpOpen(true) });
  return (
    <Panel>
      <EmptyState
        icon={PartyPopper}
        title="Queue done"
        action={
          <div className="flex gap-2">
            {onBack && (
              <Button variant="secondary" onClick={onBack}>
                <ArrowLeft aria-hidden />
                Review your items <Kbd>←</Kbd>
              </Button>
            )}
            <Button asChild>
              <Link href="/annotate">All queues</Link>
            </Button>
          </div>
        }
      >
        <span data-testid="queue-done">Nothing in {queue.name} is waiting for you. Thank you!</span>
      </EmptyState>
      <ShortcutsDialog open={helpOpen} onOpenChange={setHelpOpen} />
    </Panel>
  );
}

export function AnnotateQueue({ queueId, userId }: { queueId: string; userId: string }) {
  const router = useRouter();
  const revisit = useSearchParams().get("item") ?? undefined;
  const queue = useQueue(queueId);
  const next = useNextItem(queueId, queue.isSuccess);
  const done = useDoneItems(queueId);
  const currentId = revisit ?? next.data?.id;
  const item = useItem(queueId, currentId);

  if (queue.isPending) return <DetailSkeleton label="Loading queue" />;
  if (queue.isError) return <DetailLoadError what="the queue" error={queue.error} retry={() => void queue.refetch()} notFound={NOT_FOUND} />;

  const go = (itemId: string | undefined) => router.push(itemId ? `/annotate/${queueId}?item=${encodeURIComponent(itemId)}` : `/annotate/${queueId}`);
  const history = (done.data ?? []).filter((i) => i.id !== next.data?.id);
  const at = revisit ? history.findIndex((i) => i.id === revisit) : history.length;
  const previous = at > 0 ? history[at - 1] : undefined;
  const onPreviousItem = previous ? () => go(previous.id) : undefined;
  const onNextItem = revisit ? () => go(history[at + 1]?.id) : undefined;

  const { total, remaining } = queue.data.counts;
  const loadingNext = !revisit && (next.isPending || next.isFetching);
  let body;
  if (next.isError && !revisit) body = <DetailLoadError what="your next item" error={next.error} retry={() => void next.refetch()} notFound={NOT_FOUND} />;
  else if (loadingNext) body = <DetailSkeleton label="Loading your next item" />;
  else if (!currentId) body = <QueueDone queue={queue.data} onBack={onPreviousItem} />;
  else if (item.isPending) body = <DetailSkeleton label="Loading item" />;
  else if (item.isError) body = <DetailLoadError what="the item" error={item.error} retry={() => void item.refetch()} notFound={{ ...NOT_FOUND, title: "Item not found", reason: "It was removed from the queue." }} />;
  else
    body = (
      <ItemScreen
        key={item.data.item.id}
        queue={queue.data}
        data={item.data}
        userId={userId}
        revisiting={Boolean(revisit)}
        busy={next.isFetching}
        onDone={() => (revisit ? onNextItem?.() : undefined)}
        onPreviousItem={onPreviousItem}
        onNextItem={onNextItem}
      />
    );

  return (
    <div className="space-y-5">
      <DetailHeader
        back={{ href: "/annotate", label: "Your queues" }}
        title={queue.data.name}
        subtitle={
          <div className="mt-2 max-w-md space-y-1.5">
            <QueueProgress counts={queue.data.counts} label={`Progress of ${queue.data.name}`} />
            <p className="text-xs text-zinc-500 tabular-nums" data-testid="queue-progress">
              {item.data && currentId ? <>Item {item.data.item.position_in_queue ?? "?"} of {total} · </> : null}
              {remaining} remaining{revisit ? " · revisiting a submitted item" : ""}
            </p>
          </div>
        }
      />
      {body}
    </div>
  );
}
