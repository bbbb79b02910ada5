"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { z } from "zod";
import { inferenceKeys } from "@/components/inference/queries";
import { modelKeys } from "@/components/models/queries";
import type { CallListItem, listCallsQuery } from "@/lib/calls/schemas";
import type { Page } from "@/lib/contract/pagination";
import type { fileSchema } from "@/lib/files/schemas";
import type { RlGroupsDto, rlGroupsBody, rlJobBody, SftDatasetDto, sftDatasetBody } from "@/lib/training/from-judgement/schemas";
import type { eventPage, EventDto, JobDto, JobStatus, jobPage } from "@/lib/training/jobs/schemas";
import { apiFetch } from "@/lib/client/api-fetch";

// The jobs domain's data for the console: one query-key factory, one hook per API call. Shapes are
// the API's own zod schemas (lib/training/jobs/schemas.ts, lib/calls/schemas.ts), types only.

export type Job = JobDto;
export type JobEvent = EventDto;
export type { JobStatus };
/** A listed call with its conversation (the picker asks for `include_messages`). */
export type RecordedCall = CallListItem & Required<Pick<CallListItem, "messages" | "output">>;
/** The bodies the launch forms send (the server validates them: createSftJobBody, createRlJobBody). */
export interface SftJobInput {
  model_id: string;
  training_data_url?: string;
  training_data?: { messages: Record<string, unknown>[]; tools?: unknown[] }[];
  config?: { batch_size?: number; learning_rate?: number; assistant_turns?: "all" | "last" };
}
export interface RlJobInput {
  model_id: string;
  trajectory_groups: { trajectories: { messages_and_choices: unknown[]; reward: number }[] }[];
  experimental_config?: Record<string, unknown>;
}
export type UploadedFile = z.infer<typeof fileSchema>;
export type CallFilter = Pick<z.input<typeof listCallsQuery>, "project" | "model">;

export interface JobFilter {
  model_id?: string;
  status?: JobStatus;
}

export const jobKeys = {
  all: ["jobs"] as const,
  lists: () => [...jobKeys.all, "list"] as const,
  list: (filter: JobFilter) => [...jobKeys.lists(), filter] as const,
  detail: (id: string) => [...jobKeys.all, "detail", id] as const,
  events: (id: string) => [...jobKeys.detail(id), "events"] as const,
  calls: (filter: CallFilter) => [...jobKeys.all, "calls", filter] as const,
};

const segment = encodeURIComponent;
const PAGE_SIZE = 20;
/** How often a list or a job refreshes while something is queued or running. */
export const LIVE_INTERVAL_MS = 1_000;

export const isLive = (status: JobStatus) => status === "queued" || status === "running";

/** Newest first, with "load more"; refreshes itself while any listed job is queued or running. */
export function useJobs(filter: JobFilter) {
  return useInfiniteQuery({
    queryKey: jobKeys.list(filter),
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
      if (filter.model_id) query.set("model_id", filter.model_id);
      if (filter.status) query.set("status", filter.status);
      if (pageParam) query.set("after", pageParam);
      return apiFetch<z.infer<typeof jobPage>>(`/v1/preview/training-jobs?${query}`, { signal });
    },
    initialPageParam: "",
    getNextPageParam: (page) => (page.has_more ? page.last_id : undefined),
    select: (data) => data.pages.flatMap((page) => page.data),
    refetchInterval: (query) => (query.state.data?.pages.some((p) => p.data.some((j) => isLive(j.status))) ? LIVE_INTERVAL_MS : false),
  });
}

/** One job; polls while it is queued or running. */
export function useJob(id: string) {
  return useQuery({
    queryKey: jobKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<Job>(`/v1/preview/training-jobs/${segment(id)}`, { signal }),
    refetchInterval: (query) => (query.state.data && isLive(query.state.data.status) ? LIVE_INTERVAL_MS : false),
  });
}

/**
 * Every event of a job, in order, kept current while `live`: each poll asks only for what came
 * after the last event seen (`after` = its id) and appends it, page by page.
 */
export function useJobEvents(id: string, live: boolean) {
  const [events, setEvents] = useState<JobEvent[]>([]);
  const lastId = useRef<string | undefined>(undefined);
  const query = useQuery({
    queryKey: jobKeys.events(id),
    queryFn: async ({ signal }) => {
      // Each page is kept as it arrives (the cursor and the list advance together): a backlog of
      // thousands of steps shows while it is read, even when a fast job adds steps as quickly as
      // pages come, and a poll that is aborted keeps what it read.
      for (;;) {
        const cursor = lastId.current;
        const params = new URLSearchParams({ limit: "100" });
        if (cursor) params.set("after", cursor);
        const page = await apiFetch<z.infer<typeof eventPage>>(`/v1/preview/training-jobs/${segment(id)}/events?${params}`, { signal });
        if (lastId.current !== cursor) break; // another poll already appended this page
        if (page.data.length) {
          lastId.current = page.last_id;
          setEvents((list) => [...list, ...page.data]);
        }
        if (!page.has_more) break;
      }
      return lastId.current ?? "";
    },
    refetchInterval: live ? LIVE_INTERVAL_MS : false,
    staleTime: 0,
    gcTime: 0, // the list lives in this component: a later visit reads the feed again
  });
  // The job just finished: one more read picks up its last steps and its terminal event.
  const wasLive = useRef(live);
  const { refetch } = query;
  useEffect(() => {
    if (wasLive.current && !live) void refetch();
    wasLive.current = live;
  }, [live, refetch]);
  return { events, isPending: query.isPending, isError: query.isError, error: query.error, refetch: query.refetch };
}

export function useCancelJob(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<Job>(`/v1/preview/training-jobs/${segment(id)}/cancel`, { method: "POST" }),
    onSuccess: (job) => {
      client.setQueryData(jobKeys.detail(id), job);
      void client.invalidateQueries({ queryKey: jobKeys.lists() });
    },
  });
}

function useJobCreated() {
  const client = useQueryClient();
  return (job: Job) => {
    client.setQueryData(jobKeys.detail(job.id), job);
    void client.invalidateQueries({ queryKey: jobKeys.lists() });
  };
}

/** SFT from an uploaded JSONL: upload it (purpose fine-tune), then queue the job on its id. */
export function useLaunchSftFromFile() {
  const created = useJobCreated();
  return useMutation({
    mutationFn: async ({ file, team, model_id, config }: { file: File; team?: string; model_id: string; config: SftJobInput["config"] }) => {
      const form = new FormData();
      form.append("file", file, file.name);
      form.append("purpose", "fine-tune");
      if (team) form.append("team", team);
      const uploaded = await apiFetch<UploadedFile>("/v1/files", { method: "POST", body: form });
      return apiFetch<Job>("/v1/preview/sft-training-jobs", { method: "POST", body: { model_id, training_data_url: uploaded.id, config } });
    },
    onSuccess: created,
  });
}

export function useLaunchSft() {
  const created = useJobCreated();
  return useMutation({
    mutationFn: (body: SftJobInput) => apiFetch<Job>("/v1/preview/sft-training-jobs", { method: "POST", body }),
    onSuccess: created,
  });
}

export function useLaunchRl() {
  const created = useJobCreated();
  return useMutation({
    mutationFn: (body: RlJobInput) => apiFetch<Job>("/v1/preview/training-jobs", { method: "POST", body }),
    onSuccess: created,
  });
}

export type SftDatasetInput = z.input<typeof sftDatasetBody>;
export type SftDataset = SftDatasetDto;
export type RlGroupsInput = z.input<typeof rlGroupsBody>;
export type RlGroupsPreview = RlGroupsDto;

/** An SFT dataset file from human judgement (a queue's or a filter's annotated calls). */
export function useBuildSftDataset() {
  return useMutation({ mutationFn: (body: SftDatasetInput) => apiFetch<SftDataset>("/v1/preview/judgement/sft-dataset", { method: "POST", body }) });
}

/** The RL groups human scores give, before launching: groups, their rewards, the singles left out. */
export function usePreviewRlGroups() {
  return useMutation({ mutationFn: (body: RlGroupsInput) => apiFetch<RlGroupsPreview>("/v1/preview/judgement/rl-groups", { method: "POST", body }) });
}

export function useLaunchRlFromJudgement() {
  const created = useJobCreated();
  return useMutation({
    mutationFn: (body: z.input<typeof rlJobBody>) => apiFetch<Job>("/v1/preview/judgement/rl-jobs", { method: "POST", body }),
    onSuccess: created,
  });
}

/** Recorded calls with their conversations, newest first, with "load more". */
export function useCalls(filter: CallFilter, options: { enabled?: boolean } = {}) {
  return useInfiniteQuery({
    queryKey: jobKeys.calls(filter),
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: String(PAGE_SIZE), status: "success", include_messages: "true" });
      if (filter.project) query.set("project", filter.project);
      if (filter.model) query.set("model", filter.model);
      if (pageParam) query.set("after", pageParam);
      return apiFetch<Page<RecordedCall>>(`/v1/calls?${query}`, { signal });
    },
    initialPageParam: "",
    getNextPageParam: (page) => (page.has_more ? page.last_id : undefined),
    select: (data) => data.pages.flatMap((page) => page.data),
    enabled: options.enabled ?? true,
  });
}

/** When a shown job finishes, its model's checkpoints and metrics, the model lists and the
 *  playground's model list change: refresh them (and the job lists). */
export function useRefreshOnFinish(jobs: Job[] | undefined) {
  const client = useQueryClient();
  const seen = useRef(new Map<string, JobStatus>());
  useEffect(() => {
    if (!jobs) return;
    const finished = jobs.filter((job) => {
      const before = seen.current.get(job.id);
      seen.current.set(job.id, job.status);
      return before !== undefined && isLive(before) && !isLive(job.status);
    });
    if (finished.length === 0) return;
    for (const modelId of new Set(finished.map((job) => job.model_id))) void client.invalidateQueries({ queryKey: modelKeys.detail(modelId) });
    void client.invalidateQueries({ queryKey: modelKeys.lists() });
    void client.invalidateQueries({ queryKey: inferenceKeys.models() });
    void client.invalidateQueries({ queryKey: jobKeys.lists() });
  }, [jobs, client]);
}
