"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { callKeys } from "@/components/calls/queries";
import { apiFetch } from "@/lib/client/api-fetch";
import type { Page } from "@/lib/contract/pagination";
import type { AnnotationSpecDto, createSpecBody } from "@/lib/feedback/annotation-spec-schemas";
import type { addedItemsSchema, addItemsBody, ItemDto, ItemStatus, ListedItemDto, ReviewBody, ReviewState } from "@/lib/queues/item-schemas";
import type { createQueueBody, QueueDto, QueueStats, updateQueueBody } from "@/lib/queues/queue-schemas";

// Queues for engineers (lib/queues, the annotation queue API): one query-key factory, one hook per
// API call. Shapes are the API's own zod schemas, types only.

export type { ItemDto, ItemStatus, ListedItemDto, QueueDto, QueueStats, ReviewState };

/** The items table's server-side filters (GET .../items): empty strings are "any". */
export interface ItemFilters {
  status: ItemStatus | "";
  review_state: ReviewState | "";
  annotator: string;
  spec: string;
  value: string;
  search: string;
}
export type CreateQueueInput = z.input<typeof createQueueBody>;
export type UpdateQueueInput = z.input<typeof updateQueueBody>;
export type AddItemsInput = z.input<typeof addItemsBody>;
export type AddedItems = z.infer<typeof addedItemsSchema>;
export type CreateSpecInput = z.input<typeof createSpecBody>;

const segment = encodeURIComponent;
const queuePath = (queueId: string) => `/annotation_queues/${segment(queueId)}`;

export const queueKeys = {
  all: ["queues"] as const,
  lists: () => [...queueKeys.all, "list"] as const,
  list: (team: string) => [...queueKeys.lists(), team] as const,
  queue: (queueId: string) => [...queueKeys.all, "queue", queueId] as const,
  stats: (queueId: string) => [...queueKeys.queue(queueId), "stats"] as const,
  items: (queueId: string, filters?: ItemFilters) => [...queueKeys.queue(queueId), "items", ...(filters ? [filters] : [])] as const,
};

/** Every page of a cursor-paged list. */
async function allPages<T>(path: (query: URLSearchParams) => string, signal: AbortSignal): Promise<T[]> {
  const rows: T[] = [];
  for (let after = ""; ; ) {
    const query = new URLSearchParams({ limit: "100", ...(after ? { after } : {}) });
    const page = await apiFetch<Page<T>>(path(query), { signal });
    rows.push(...page.data);
    if (!page.has_more) return rows;
    after = page.last_id;
  }
}

/** The team's queues, newest first (the list spans every team the caller is in; the console shows its workspace team's). */
export function useTeamQueues(team: string | undefined) {
  return useQuery({
    queryKey: queueKeys.list(team ?? ""),
    queryFn: async ({ signal }) => {
      const queues = await allPages<QueueDto>((query) => `/annotation_queues?${query}`, signal);
      return queues.filter((queue) => queue.project.startsWith(`${team}/`)).reverse();
    },
    enabled: Boolean(team),
  });
}

/** One queue with its counts; re-read every 10 s while its page is open, so progress moves. */
export function useQueue(queueId: string) {
  return useQuery({ queryKey: queueKeys.queue(queueId), queryFn: ({ signal }) => apiFetch<QueueDto>(queuePath(queueId), { signal }), refetchInterval: 10_000 });
}

/** Per annotator and agreement, re-read as the queue is. */
export function useQueueStats(queueId: string) {
  return useQuery({
    queryKey: queueKeys.stats(queueId),
    queryFn: ({ signal }) => apiFetch<QueueStats>(`${queuePath(queueId)}/stats`, { signal }),
    refetchInterval: 10_000,
  });
}

/** The queue's items in the order they were added, filtered on the server, with "load more". */
export function useQueueItems(queueId: string, filters: ItemFilters) {
  return useInfiniteQuery({
    queryKey: queueKeys.items(queueId, filters),
    queryFn: ({ pageParam, signal }) => {
      const set = Object.entries(filters).filter(([key, value]) => value !== "" && (key !== "value" || filters.spec !== ""));
      const query = new URLSearchParams({ limit: "50", sort: "position", ...Object.fromEntries(set), ...(pageParam ? { after: pageParam } : {}) });
      return apiFetch<Page<ListedItemDto>>(`${queuePath(queueId)}/items?${query}`, { signal });
    },
    initialPageParam: "",
    getNextPageParam: (page) => (page.has_more ? page.last_id : undefined),
    select: (data) => data.pages.flatMap((page) => page.data),
  });
}

/** Accepts or rejects an item's annotations; the queue's counts and items move with it. */
export function useReviewItem(queueId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ itemId, body }: { itemId: string; body: ReviewBody }) =>
      apiFetch<{ item: ItemDto }>(`${queuePath(queueId)}/items/${segment(itemId)}/review`, { method: "POST", body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queueKeys.queue(queueId) }),
  });
}

/** Where a queue's annotations download from (the console session authenticates the request). */
export const exportUrl = (queueId: string, format: "csv" | "jsonl") => `${queuePath(queueId)}/export?format=${format}`;

export function useCreateQueue() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateQueueInput) => apiFetch<QueueDto>("/annotation_queues", { method: "POST", body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queueKeys.lists() }),
  });
}

export function useUpdateQueue(queueId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateQueueInput) => apiFetch<QueueDto>(queuePath(queueId), { method: "PATCH", body }),
    onSuccess: (queue) => {
      client.setQueryData(queueKeys.queue(queueId), queue);
      void client.invalidateQueries({ queryKey: queueKeys.lists() });
      void client.invalidateQueries({ queryKey: queueKeys.stats(queueId) });
    },
  });
}

/** Adds calls by ids or by the call log's filter; the answer counts the added and the duplicates. */
export function useAddToQueue() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ queueId, body }: { queueId: string; body: AddItemsInput }) => apiFetch<AddedItems>(`${queuePath(queueId)}/items`, { method: "POST", body }),
    onSuccess: (_, { queueId }) => {
      void client.invalidateQueries({ queryKey: queueKeys.queue(queueId) });
      void client.invalidateQueries({ queryKey: queueKeys.lists() });
    },
  });
}

/** Takes an item out of the queue (its progress and feedback stay). */
export function useRemoveItem(queueId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (itemId: string) => apiFetch(`${queuePath(queueId)}/items/${segment(itemId)}`, { method: "DELETE" }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queueKeys.queue(queueId) });
      void client.invalidateQueries({ queryKey: queueKeys.lists() });
    },
  });
}

/** Deletes the queue (soft: its items, progress and feedback stay in the database). */
export function useDeleteQueue(queueId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch(queuePath(queueId), { method: "DELETE" }),
    onSuccess: () => {
      client.removeQueries({ queryKey: queueKeys.queue(queueId) });
      void client.invalidateQueries({ queryKey: queueKeys.lists() });
    },
  });
}

/** A new annotation spec of a project, made from the queue form. */
export function useCreateSpec(project: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateSpecInput) => {
      const [team, name] = project.split("/").map(segment);
      return apiFetch<AnnotationSpecDto>(`/v1/teams/${team}/projects/${name}/annotation-specs`, { method: "POST", body });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: callKeys.specs(project) }),
  });
}
