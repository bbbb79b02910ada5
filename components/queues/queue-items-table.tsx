"use client";

import { ListChecks } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { LoadMoreFooter } from "@/components/ui/load-more-footer";
import { Panel } from "@/components/ui/panel";
import { QueryError } from "@/components/ui/query-error";
import { TableSkeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, ThActions, THead, Tr } from "@/components/ui/table";
import { errorMessage } from "@/lib/client/api-fetch";
import { ItemAnnotationsCell } from "./item-annotations-cell";
import { ItemFiltersBar, NO_FILTERS } from "./item-filters-bar";
import { ITEM_STATUS_LABEL, ITEM_STATUS_TONE } from "./item-labels";
import { useQueueItems, useQueueStats, useRemoveItem, type QueueDto } from "./queries";
import { ReviewBadge, ReviewControls } from "./review-controls";

// A queue's items for the people running and reviewing it, in the order they were added: each
// call's prompt and answer, everyone's annotations (corrections as diffs), the time each took, the
// item's status and review, and Accept / Reject once it has the annotations the queue needs.
// Filters and search run on the server, a page at a time. Removing an item keeps its progress and
// feedback (adding its call again brings it back), so it asks nothing.

export function QueueItemsTable({ queue }: { queue: QueueDto }) {
  const [filters, setFilters] = useState(NO_FILTERS);
  const items = useQueueItems(queue.id, filters);
  const stats = useQueueStats(queue.id);
  const remove = useRemoveItem(queue.id);
  const annotators = [...new Set([...queue.annotators, ...(stats.data?.annotators ?? [])].map((a) => a.username))].sort();
  const usernames = new Map([...queue.annotators, ...(stats.data?.annotators ?? [])].map((a) => [a.user_id, a.username]));
  const filtered = Object.values(filters).some((v) => v !== "");

  return (
    <Panel title="Items" description="In the order they were added." actions={<ItemFiltersBar queue={queue} annotators={annotators} filters={filters} onChange={setFilters} />}>
      {items.isPending ? (
        <TableSkeleton label="Loading items" />
      ) : items.isError ? (
        <QueryError what="the items" error={items.error} retry={() => void items.refetch()} />
      ) : items.data.length === 0 ? (
        <EmptyState icon={ListChecks}>
          {filtered ? (
            "No items match these filters."
          ) : (
            <>
              No calls in this queue yet: select calls on the <Link href="/calls" className="text-brand-700 hover:underline">Calls</Link> page and add them.
            </>
          )}
        </EmptyState>
      ) : (
        <>
          <Table label="Queue items">
            <THead>
              <Th className="text-right">#</Th>
              <Th>Prompt and answer</Th>
              <Th>Annotations</Th>
              <Th>Status</Th>
              <Th>Review</Th>
              <ThActions />
            </THead>
            <tbody>
              {items.data.map((item) => (
                <Tr key={item.id} data-testid="queue-item-row" className="align-top">
                  <Td className="text-right text-xs text-zinc-500 tabular-nums">{item.position_in_queue}</Td>
                  <Td className="max-w-sm text-xs">
                    <p className="line-clamp-2 font-medium text-zinc-900" data-testid="item-prompt">
                      {item.prompt_preview ?? "—"}
                    </p>
                    <p className="mt-1 line-clamp-3 text-zinc-600" data-testid="item-answer">
                      {item.answer_preview ?? <span className="italic">no answer</span>}
                    </p>
                    <Link href={`/calls/${item.call_id}`} className="mt-1 inline-block font-mono text-[11px] text-brand-700 hover:underline" aria-label={`Call ${item.call_id}`}>
                      {item.call_id.slice(0, 8)}…
                    </Link>
                  </Td>
                  <Td className="max-w-md">
                    <ItemAnnotationsCell item={item} queue={queue} />
                  </Td>
                  <Td className="text-xs whitespace-nowrap">
                    <Badge tone={ITEM_STATUS_TONE[item.status]}>{ITEM_STATUS_LABEL[item.status]}</Badge>
                    <p className="mt-1 text-zinc-500 tabular-nums">
                      {item.completed_annotations} / {queue.annotations_per_item}
                      {item.claimed_by ? ` · ${usernames.get(item.claimed_by) ?? "someone"} working` : ""}
                    </p>
                  </Td>
                  <Td className="max-w-48 text-xs">
                    <ReviewBadge item={item} />
                    {item.review.note && <p className="mt-1 text-zinc-500 italic">{item.review.note}</p>}
                  </Td>
                  <Td className="text-right">
                    <ReviewControls queueId={queue.id} item={item} reviewable={item.completed_annotations >= queue.annotations_per_item} />
                    <Button
                      variant="danger-ghost"
                      size="sm"
                      aria-label={`Remove call ${item.call_id} from the queue`}
                      disabled={remove.isPending && remove.variables === item.id}
                      onClick={() => remove.mutate(item.id)}
                    >
                      Remove
                    </Button>
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
          {remove.isError && (
            <p role="alert" className="border-t border-zinc-100 px-4 py-2 text-xs text-red-600">
              Could not remove the item: {errorMessage(remove.error)}
            </p>
          )}
          <LoadMoreFooter pages={items} />
        </>
      )}
    </Panel>
  );
}
