"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { isLive, jobKeys, LIVE_INTERVAL_MS, type UploadedFile } from "@/components/jobs/queries";
import { apiFetch } from "@/lib/client/api-fetch";
import type { PromptsInput, RlRunSettings } from "@/lib/client/rl-run-input";
import type { rlRunPage, RlRunDto } from "@/lib/training/rl-runs/schemas";

// RL runs for the console: one query-key factory, one hook per API call; shapes are the API's
// zod schemas (lib/training/rl-runs/schemas.ts), types only.

export type RlRun = RlRunDto;
/** POST /v1/preview/rl-runs's body as the form builds it (createRlRunBody validates it). */
export type RlRunInput = RlRunSettings & { model_id: string; prompts: PromptsInput };

export const rlRunKeys = {
  all: ["rl-runs"] as const,
  lists: () => [...rlRunKeys.all, "list"] as const,
  list: (modelId?: string) => [...rlRunKeys.lists(), modelId ?? ""] as const,
  detail: (id: string) => [...rlRunKeys.all, "detail", id] as const,
};

const segment = encodeURIComponent;

/** Newest first, with "load more"; refreshes itself while any listed run is queued or running. */
export function useRlRuns(modelId?: string) {
  return useInfiniteQuery({
    queryKey: rlRunKeys.list(modelId),
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: "20" });
      if (modelId) query.set("model_id", modelId);
      if (pageParam) query.set("after", pageParam);
      return apiFetch<z.infer<typeof rlRunPage>>(`/v1/preview/rl-runs?${query}`, { signal });
    },
    initialPageParam: "",
    getNextPageParam: (page) => (page.has_more ? page.last_id : undefined),
    select: (data) => data.pages.flatMap((page) => page.data),
    refetchInterval: (query) => (query.state.data?.pages.some((p) => p.data.some((r) => isLive(r.status))) ? LIVE_INTERVAL_MS : false),
  });
}

/** One run; polls while it is queued or running (each iteration's rewards appear as it rolls out). */
export function useRlRun(id: string) {
  return useQuery({
    queryKey: rlRunKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<RlRun>(`/v1/preview/rl-runs/${segment(id)}`, { signal }),
    refetchInterval: (query) => (query.state.data && isLive(query.state.data.status) ? LIVE_INTERVAL_MS : false),
  });
}

/** Starts a run; prompts from a JSONL file are uploaded first (purpose fine-tune) and named by id. */
export function useLaunchRlRun() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ body, file, team }: { body: Omit<RlRunInput, "prompts"> & { prompts?: PromptsInput }; file?: File; team?: string }) => {
      let prompts = body.prompts;
      if (file) {
        const form = new FormData();
        form.append("file", file, file.name);
        form.append("purpose", "fine-tune");
        if (team) form.append("team", team);
        const uploaded = await apiFetch<UploadedFile>("/v1/files", { method: "POST", body: form });
        prompts = { source: "file", file_id: uploaded.id };
      }
      return apiFetch<RlRun>("/v1/preview/rl-runs", { method: "POST", body: { ...body, prompts } });
    },
    onSuccess: (run) => {
      client.setQueryData(rlRunKeys.detail(run.id), run);
      void client.invalidateQueries({ queryKey: rlRunKeys.lists() });
    },
  });
}

export function useCancelRlRun(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<RlRun>(`/v1/preview/rl-runs/${segment(id)}/cancel`, { method: "POST" }),
    onSuccess: (run) => {
      client.setQueryData(rlRunKeys.detail(id), run);
      void client.invalidateQueries({ queryKey: rlRunKeys.lists() });
      void client.invalidateQueries({ queryKey: jobKeys.lists() });
    },
  });
}
