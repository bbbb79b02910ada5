"use client";

import { ListChecks } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { LoadMoreFooter } from "@/components/ui/load-more-footer";
import { Panel } from "@/components/ui/panel";
import { QueryError } from "@/components/ui/query-error";
import { RelativeTime } from "@/components/ui/relative-time";
import { TableSkeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, ThActions, THead, Tr } from "@/components/ui/table";
import { ITEM_STATUSES, type ItemStatus } from "@/lib/queues/item-schemas";
import { errorMessage } from "@/lib/client/api-fetch";
import { useQueueItems, useRemoveItem, type QueueDto } from "./queries";

// A queue's items in the order they were added, filtered by status: each one's call, its
// completed annotations out of the queue's number, and who holds it now. Removing an item keeps
// its progress and feedback (adding its call again brings it back), so it asks nothing.

const STATUS_LABEL: Record<ItemStatus, string> = { unstarted: "Not started", in_progress: "In progress", completed: "Completed", skipped: "Skipped" };
const STATUS_TONE: Record<ItemStatus, BadgeTone> = { unstarted: "neutral", in_progress: "blue", completed: "green", skipped: "violet" };

export function QueueItemsTable({ queue }: { queue: QueueDto }) {
  const [status, setStatus] = useState<ItemStatus | "">("");
  const items = useQueueItems(queue.id, status);
  const remove = useRemoveItem(queue.id);
  const usernames = new Map(queue.annotators.map((a) => [a.user_id, a.username]));

  const filter = (
    <select
      aria-label="Filter items by status"
      className="rounded-md border border-zinc-300 bg-white py-1 pr-7 pl-2 text-[13px]"
      value={status}
      onChange={(e) => setStatus(e.target.value as ItemStatus | "")}
    >
      <option value="">All statuses</option>
        {ITEM_STATUSES.map((s) => (
          <option key={s} value={s}>
            {STATUS_LABEL[s]}
          </option>
        ))}
    </select>
  );

  return (
    <Panel title="Items" description="In the order they were added." actions={filter}>
      {items.isPending ? (
        <TableSkeleton label="Loading items" />
      ) : items.isError ? (
        <QueryError what="the items" error={items.error} retry={() => void items.refetch()} />
      ) : items.data.length === 0 ? (
        <EmptyState icon={ListChecks}>
          {status ? (
            "No items with this status."
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
              <Th>Call</Th>
              <Th>Status</Th>
              <Th className="text-right">Annotations</Th>
              <Th>Claimed by</Th>
              <Th>Call made</Th>
              <ThActions />
            </THead>
            <tbody>
              {items.data.map((item) => (
                <Tr key={item.id} data-testid="queue-item-row">
                  <Td className="text-right text-xs text-zinc-500 tabular-nums">{item.position_in_queue}</Td>
                  <Td className="font-mono text-[11px]">
                    <Link href={`/calls/${item.call_id}`} className="text-brand-700 hover:underline" aria-label={`Call ${item.call_id}`}>
                      {item.call_id.slice(0, 8)}…
                    </Link>
                  </Td>
                  <Td>
                    <Badge tone={STATUS_TONE[item.status]}>{STATUS_LABEL[item.status]}</Badge>
                  </Td>
                  <Td className="text-right text-xs tabular-nums">
                    {item.completed_annotations} / {queue.annotations_per_item}
                  </Td>
                  <Td className="text-xs text-zinc-600">{item.claimed_by ? (usernames.get(item.claimed_by) ?? "someone") : ""}</Td>
                  <Td className="text-xs whitespace-nowrap text-zinc-500">
                    <RelativeTime iso={item.call_started_at} />
                  </Td>
                  <Td className="text-right">
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
