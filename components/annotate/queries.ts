"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { apiFetch } from "@/lib/client/api-fetch";
import type { Page } from "@/lib/contract/pagination";
import type { ItemDto, ItemWithCall, submittedSchema } from "@/lib/queues/item-schemas";
import type { QueueDto, QueueSpecDto, QueueStats } from "@/lib/queues/queue-schemas";

// The annotator's data (lib/queues, docs/annotation-queues.md): one query-key factory, one hook
// per API call. Shapes are the queue API's own zod schemas, types only.

export type { ItemDto, ItemWithCall, QueueDto, QueueSpecDto, QueueStats };
export type Submitted = z.infer<typeof submittedSchema>;

const segment = encodeURIComponent;
const queuePath = (queueId: string) => `/annotation_queues/${segment(queueId)}`;
const itemPath = (queueId: string, itemId: string) => `${queuePath(queueId)}/items/${segment(itemId)}`;

export const annotateKeys = {
  all: ["annotate"] as const,
  queues: () => [...annotateKeys.all, "queues"] as const,
  queue: (queueId: string) => [...annotateKeys.all, "queue", queueId] as const,
  stats: (queueId: string) => [...annotateKeys.queue(queueId), "stats"] as const,
  next: (queueId: string) => [...annotateKeys.queue(queueId), "next"] as const,
  done: (queueId: string) => [...annotateKeys.queue(queueId), "done"] as const,
  item: (queueId: string, itemId: string) => [...annotateKeys.queue(queueId), "item", itemId] as const,
};

/** Every page of a cursor-paged list (queues and one person's items are short). */
async function everyPage<T>(path: string, params: Record<string, string>, signal: AbortSignal): Promise<T[]> {
  const rows: T[] = [];
  for (let after = ""; ; ) {
    const query = new URLSearchParams({ ...params, limit: "100", ...(after ? { after } : {}) });
    const page = await apiFetch<Page<T>>(`${path}?${query}`, { signal });
    rows.push(...page.data);
    if (!page.has_more) return rows;
    after = page.last_id;
  }
}

/**
 * Every queue the caller reaches, in all their teams (annotators: those assigned to them; members
 * and admins: all of their teams'), every page: an annotator's work should not hide behind the
 * console's workspace switcher.
 */
export function useQueues() {
  return useQuery({
    queryKey: annotateKeys.queues(),
    queryFn: ({ signal }) => everyPage<QueueDto>("/annotation_queues", {}, signal),
  });
}

export function useQueue(queueId: string) {
  return useQuery({ queryKey: annotateKeys.queue(queueId), queryFn: ({ signal }) => apiFetch<QueueDto>(queuePath(queueId), { signal }) });
}

/** Per-annotator counts (for "my done"); a failure only hides them. */
export function useQueueStats(queueId: string) {
  return useQuery({ queryKey: annotateKeys.stats(queueId), queryFn: ({ signal }) => apiFetch<QueueStats>(`${queuePath(queueId)}/stats`, { signal }), retry: false });
}

/**
 * "Next item for me": claims an item, or returns the caller's live claim first — so asking again
 * (a reload, a refetch) resumes the same item instead of taking another. null: nothing is left.
 */
export function useNextItem(queueId: string, enabled: boolean) {
  return useQuery({
    queryKey: annotateKeys.next(queueId),
    queryFn: ({ signal }) => apiFetch<{ item: ItemDto | null }>(`${queuePath(queueId)}/next`, { method: "POST", signal }),
    select: (data) => data.item,
    enabled,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

/** The caller's completed items, in queue order: what Back steps through. */
export function useDoneItems(queueId: string) {
  return useQuery({
    queryKey: annotateKeys.done(queueId),
    queryFn: ({ signal }) => everyPage<ItemDto>(`${queuePath(queueId)}/items`, { my_state: "completed", sort: "position" }, signal),
  });
}

/**
 * One item with its call, the display fields resolved, and the caller's own annotations. Not kept
 * once off screen: the form opens from `mine`, which one's own submission changes, so an item
 * revisited with Back is always read afresh (a cached copy would open the form empty).
 */
export function useItem(queueId: string, itemId: string | undefined) {
  return useQuery({
    queryKey: annotateKeys.item(queueId, itemId ?? ""),
    queryFn: ({ signal }) => apiFetch<ItemWithCall>(itemPath(queueId, itemId!), { signal }),
    enabled: Boolean(itemId),
    gcTime: 0,
  });
}

/** After a write: the lists, counts and this item are stale; the claim is asked for again. */
function useInvalidateQueue(queueId: string) {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: annotateKeys.queue(queueId) });
    void client.invalidateQueries({ queryKey: annotateKeys.queues() });
  };
}

export function useSubmitItem(queueId: string) {
  const invalidate = useInvalidateQueue(queueId);
  return useMutation({
    mutationFn: ({ itemId, values, note }: { itemId: string; values: Record<string, unknown>; note?: string }) =>
      apiFetch<Submitted>(`${itemPath(queueId, itemId)}/submit`, { method: "POST", body: { values, ...(note ? { note } : {}) } }),
    onSuccess: invalidate,
  });
}

/**
 * Gives one's claim on the item back. The queue's reads are only marked stale, not refetched: the
 * screen is being left, and asking for "next" now would claim the same item again at once.
 */
export function useReleaseItem(queueId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ itemId }: { itemId: string }) => apiFetch<{ item: ItemDto }>(`${itemPath(queueId, itemId)}/release`, { method: "POST" }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: annotateKeys.queue(queueId), refetchType: "none" });
      void client.invalidateQueries({ queryKey: annotateKeys.queues() });
    },
  });
}

export function useSkipItem(queueId: string) {
  const invalidate = useInvalidateQueue(queueId);
  return useMutation({
    mutationFn: ({ itemId, reason }: { itemId: string; reason?: string }) =>
      apiFetch<{ item: ItemDto }>(`${itemPath(queueId, itemId)}/skip`, { method: "POST", body: reason ? { reason } : {} }),
    onSuccess: invalidate,
  });
}
