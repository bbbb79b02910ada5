"use client";

import { keepPreviousData, useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { resolveRange, type StatsSelection } from "@/components/feedback/stats-selection";
import { apiFetch } from "@/lib/client/api-fetch";
import type { FeedbackStatsResult, PayloadKeysResult } from "@/lib/feedback/stats-schema";

// The feedback stats tab's data: one query-key factory, one hook per API call. Everything under
// feedbackKeys.all is read again every REFRESH_MS while the tab is open (new feedback shows up
// without a reload) and invalidated by the console's own feedback writes (components/calls/feedback.ts).

/** How often the stats, the keys and the rows are read again. */
export const REFRESH_MS = 10_000;
const ROWS_PAGE = 50;

export type FeedbackStats = FeedbackStatsResult;
export type PayloadKey = PayloadKeysResult["keys"][number];

export interface FeedbackStatsRow {
  id: string;
  created_at: string;
  feedback_type: string;
  payload: Record<string, unknown>;
  svc_ref: string;
  trigger_ref: string | null;
  [field: string]: unknown;
}

export const feedbackKeys = {
  all: ["feedback"] as const,
  stats: (selection: StatsSelection, timezone: string) => [...feedbackKeys.all, "stats", selection, timezone] as const,
  payloadKeys: (filter: Pick<StatsSelection, "project" | "feedback_type" | "trigger_ref">) => [...feedbackKeys.all, "payload-keys", filter] as const,
  rows: (selection: StatsSelection) => [...feedbackKeys.all, "rows", selection] as const,
};

const live = { refetchInterval: REFRESH_MS, staleTime: 0 } as const;

/** Buckets and window stats of the selection; a preset's range is taken up to now at each read. */
export function useFeedbackStats(selection: StatsSelection, timezone: string) {
  return useQuery({
    queryKey: feedbackKeys.stats(selection, timezone),
    queryFn: ({ signal }) =>
      apiFetch<FeedbackStats>("/feedback/stats", {
        method: "POST",
        body: {
          project_id: selection.project,
          ...resolveRange(selection),
          timezone,
          ...(selection.granularity && { granularity: selection.granularity }),
          ...(selection.feedback_type && { feedback_type: selection.feedback_type }),
          ...(selection.trigger_ref && { trigger_ref: selection.trigger_ref }),
          metrics: selection.metrics,
        },
        signal,
      }),
    enabled: Boolean(selection.project && resolveRange(selection)),
    placeholderData: keepPreviousData, // a change of metric keeps the old chart until the new one arrives
    ...live,
  });
}

/** The payload keys of the project's recent feedback (of the chosen type and trigger, at any
 *  time, so a metric can be built before the range holds any), with the kind of value each holds. */
export function usePayloadKeys(selection: StatsSelection) {
  const { project, feedback_type, trigger_ref } = selection;
  return useQuery({
    queryKey: feedbackKeys.payloadKeys({ project, feedback_type, trigger_ref }),
    queryFn: ({ signal }) =>
      apiFetch<PayloadKeysResult>("/feedback/stats/keys", { method: "POST", body: { project_id: project, feedback_type, trigger_ref }, signal }),
    select: (data) => data.keys,
    enabled: Boolean(project),
    ...live,
  });
}

const literal = (value: string) => ({ $literal: value });
const field = (name: string) => ({ $getField: name });

/** The `/feedback/query` condition of the rows the stats count: the range, type and trigger. */
export function rowsCondition(selection: StatsSelection, now = Date.now()) {
  const range = resolveRange(selection, now);
  const terms: object[] = [];
  if (range) terms.push({ $gte: [field("created_at"), literal(range.start)] });
  if (range?.end) terms.push({ $not: [{ $gte: [field("created_at"), literal(range.end)] }] });
  if (selection.feedback_type) terms.push({ $eq: [field("feedback_type"), literal(selection.feedback_type)] });
  const trigger = selection.trigger_ref;
  if (trigger?.endsWith(":*")) {
    // Every version: refs from `<name>:` up to (not including) `<name>;`, the next character.
    const prefix = trigger.slice(0, -1);
    terms.push({ $gte: [field("trigger_ref"), literal(prefix)] }, { $not: [{ $gte: [field("trigger_ref"), literal(`${prefix.slice(0, -1)};`)] }] });
  } else if (trigger) {
    terms.push({ $eq: [field("trigger_ref"), literal(trigger)] });
  }
  return { $expr: { $and: terms } };
}

const ROW_FIELDS = ["id", "created_at", "feedback_type", "payload", "svc_ref", "trigger_ref"];

/** The feedback rows behind the stats, newest first, a page at a time. */
export function useFeedbackRows(selection: StatsSelection) {
  return useInfiniteQuery({
    queryKey: feedbackKeys.rows(selection),
    queryFn: ({ pageParam, signal }) =>
      apiFetch<{ result: FeedbackStatsRow[] }>("/feedback/query", {
        method: "POST",
        body: {
          project_id: selection.project,
          // Each charted metric's value too, as `payload.<json_path>`.
          fields: [...new Set([...ROW_FIELDS, ...selection.metrics.map((m) => `payload.${m.json_path}`)])],
          query: rowsCondition(selection),
          sort_by: [{ field: "created_at", direction: "desc" }],
          limit: ROWS_PAGE,
          offset: pageParam,
        },
        signal,
      }),
    initialPageParam: 0,
    getNextPageParam: (page, pages) => (page.result.length === ROWS_PAGE ? pages.length * ROWS_PAGE : undefined),
    select: (data) => data.pages.flatMap((page) => page.result),
    enabled: Boolean(selection.project && resolveRange(selection)),
    ...live,
  });
}

/** Reads everything on the tab again now (the Refresh button). */
export function useRefreshFeedback() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: feedbackKeys.all });
}
