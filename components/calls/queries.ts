"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { CallDetailDto, CallListItem, CallStatus, FeedbackSummary } from "@/lib/calls/schemas";
import type { Page } from "@/lib/contract/pagination";
import type { AnnotationSpecDto } from "@/lib/feedback/annotation-spec-schemas";
import { apiFetch } from "@/lib/client/api-fetch";

// The call log's data for the console: one query-key factory, one hook per API call. Shapes are
// the API's own zod schemas (lib/calls/schemas.ts), types only. Feedback on a call: feedback.ts.

export type { CallListItem, CallStatus, FeedbackSummary };
export type CallDetail = CallDetailDto;
export type AnnotationSpec = AnnotationSpecDto;

/** Time presets: the list asks for calls since now minus this, computed when it is fetched. */
export const TIME_PRESETS = { "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000 } as const;
export type TimePreset = keyof typeof TIME_PRESETS;

/** The list's filters as the page's URL holds them (every value a query parameter's text). */
export interface CallLogFilter {
  project?: string;
  model?: string;
  status?: CallStatus;
  /** A preset, or `custom` with `start`/`end` (ISO 8601). */
  range?: TimePreset | "custom";
  start?: string;
  end?: string;
  has_feedback?: "true" | "false";
  feedback_type?: string;
  feedback_value?: string;
}

export const callKeys = {
  all: ["calls"] as const,
  lists: () => [...callKeys.all, "list"] as const,
  list: (filter: CallLogFilter) => [...callKeys.lists(), filter] as const,
  detail: (id: string) => [...callKeys.all, "detail", id] as const,
  feedback: (ref: string) => [...callKeys.all, "feedback", ref] as const,
  specs: (project: string) => [...callKeys.all, "annotation-specs", project] as const,
};

const PAGE_SIZE = 25;

/** The API's query for a filter, with a preset's start computed now. */
export function callLogQuery(filter: CallLogFilter, now = Date.now()): URLSearchParams {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  const { range, start, end, ...rest } = filter;
  for (const [name, value] of Object.entries(rest)) if (value) query.set(name, value);
  if (range && range !== "custom") query.set("start", new Date(now - TIME_PRESETS[range]).toISOString());
  if (range === "custom") {
    if (start) query.set("start", start);
    if (end) query.set("end", end);
  }
  return query;
}

/** The call log, newest first, with "load more". */
export function useCallLog(filter: CallLogFilter) {
  return useInfiniteQuery({
    queryKey: callKeys.list(filter),
    queryFn: ({ pageParam, signal }) => {
      const query = callLogQuery(filter);
      if (pageParam) query.set("after", pageParam);
      return apiFetch<Page<CallListItem>>(`/v1/calls?${query}`, { signal });
    },
    initialPageParam: "",
    getNextPageParam: (page) => (page.has_more ? page.last_id : undefined),
    select: (data) => data.pages.flatMap((page) => page.data),
  });
}

/** One call with its whole request and response. */
export function useCall(id: string | undefined) {
  return useQuery({
    queryKey: callKeys.detail(id ?? ""),
    queryFn: ({ signal }) => apiFetch<CallDetail>(`/v1/calls/${encodeURIComponent(id!)}`, { signal }),
    enabled: Boolean(id),
    staleTime: 30_000, // a recorded call never changes; only its feedback summary does
  });
}

/** The project's annotation specs (current versions), every page of them: what a call is scored on. */
export function useAnnotationSpecs(project: string | undefined) {
  return useQuery({
    queryKey: callKeys.specs(project ?? ""),
    queryFn: async ({ signal }) => {
      const [team, name] = project!.split("/").map(encodeURIComponent);
      const specs: AnnotationSpec[] = [];
      for (let after = ""; ; ) {
        const query = new URLSearchParams({ limit: "100", ...(after ? { after } : {}) });
        const page = await apiFetch<Page<AnnotationSpec>>(`/v1/teams/${team}/projects/${name}/annotation-specs?${query}`, { signal });
        specs.push(...page.data);
        if (!page.has_more) return specs;
        after = page.last_id;
      }
    },
    enabled: Boolean(project),
  });
}
