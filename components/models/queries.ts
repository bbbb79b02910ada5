"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { inferenceKeys } from "@/components/inference/queries";
import type {
  checkpointPage,
  checkpointSchema,
  createModelBody,
  deletedCheckpointsSchema,
  deletedModelSchema,
  learningCurveSchema,
  loggedTrajectoryGroupPage,
  loggedTrajectoryGroupSchema,
  loggedTrajectorySchema,
  modelDetailSchema,
  modelMetricsSchema,
  modelPage,
  modelSchema,
} from "@/lib/training/models/schemas";
import { apiFetch } from "@/lib/client/api-fetch";
import { curveIsLive } from "@/lib/client/learning-curve";
import type { TrainingEstimate } from "@/lib/training/estimate/schemas";

// The models domain's data for the console: one query-key factory and one hook per API call.
// Shapes are the API's own zod schemas (lib/training/models/schemas.ts), imported as types only.

export type TrainedModel = z.infer<typeof modelDetailSchema>;
export type Checkpoint = z.infer<typeof checkpointSchema>;
export type TrajectoryGroup = z.infer<typeof loggedTrajectoryGroupSchema>;
export type LoggedTrajectory = z.infer<typeof loggedTrajectorySchema>;
export type StepMetrics = z.infer<typeof modelMetricsSchema>["data"][number];
export type CreateModelInput = z.input<typeof createModelBody>;

/** Which trained models a list shows: one project (`team/project`) or every project of a team. */
export type ModelScope = { project: string } | { entity: string };
export interface GroupFilter {
  split?: string;
  step?: number;
}

export const modelKeys = {
  all: ["models"] as const,
  lists: () => [...modelKeys.all, "list"] as const,
  list: (scope: ModelScope) => [...modelKeys.lists(), scope] as const,
  detail: (id: string) => [...modelKeys.all, "detail", id] as const,
  checkpoints: (id: string) => [...modelKeys.detail(id), "checkpoints"] as const,
  metrics: (id: string) => [...modelKeys.detail(id), "metrics"] as const,
  learningCurve: (id: string) => [...modelKeys.detail(id), "learning-curve"] as const,
  byName: (name: string) => [...modelKeys.lists(), "by-name", name] as const,
  groups: (id: string, filter: GroupFilter) => [...modelKeys.detail(id), "trajectory-groups", filter] as const,
  estimate: (query: EstimateQuery) => [...modelKeys.all, "training-estimate", query] as const,
};

/** A LoRA adapter on a base, and optionally a job's tokens and steps or RL rows (GET /v1/preview/training-estimate). */
export interface EstimateQuery {
  base_model: string;
  rank: number;
  target_modules: readonly string[];
  steps?: number;
  tokens?: number;
  /** RL: the job's trajectories (the server counts its steps). */
  rl_rows?: number;
}

const segment = encodeURIComponent;
const PAGE_SIZE = 20;

export function useTrainedModels(scope: ModelScope | undefined) {
  return useInfiniteQuery({
    queryKey: modelKeys.list(scope ?? { entity: "" }),
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: String(PAGE_SIZE), ...scope });
      if (pageParam) query.set("after", pageParam);
      return apiFetch<z.infer<typeof modelPage>>(`/v1/preview/models?${query}`, { signal });
    },
    initialPageParam: "",
    getNextPageParam: (page) => (page.has_more ? page.last_id : undefined),
    select: (data) => data.pages.flatMap((page) => page.data),
    enabled: Boolean(scope),
  });
}

export function useTrainedModel(id: string) {
  return useQuery({
    queryKey: modelKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<TrainedModel>(`/v1/preview/models/${segment(id)}`, { signal }),
  });
}

/** Newest first, with "load more". */
export function useCheckpoints(id: string) {
  return useInfiniteQuery({
    queryKey: modelKeys.checkpoints(id),
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: String(PAGE_SIZE), order: "desc" });
      if (pageParam) query.set("after", pageParam);
      return apiFetch<z.infer<typeof checkpointPage>>(`/v1/preview/models/${segment(id)}/checkpoints?${query}`, { signal });
    },
    initialPageParam: "",
    getNextPageParam: (page) => (page.has_more ? page.last_id : undefined),
    select: (data) => data.pages.flatMap((page) => page.data),
  });
}

export function useModelMetrics(id: string) {
  return useQuery({
    queryKey: modelKeys.metrics(id),
    queryFn: ({ signal }) => apiFetch<z.infer<typeof modelMetricsSchema>>(`/v1/preview/models/${segment(id)}/metrics`, { signal }),
    select: (result) => result.data,
  });
}

/** Jobs, gradient steps and checkpoints on one axis; polled while a job may still move it. */
export function useLearningCurve(id: string | undefined) {
  return useQuery({
    queryKey: modelKeys.learningCurve(id ?? ""),
    queryFn: ({ signal }) => apiFetch<z.infer<typeof learningCurveSchema>>(`/v1/preview/models/${segment(id!)}/learning-curve`, { signal }),
    enabled: Boolean(id),
    refetchInterval: (query) => (curveIsLive(query.state.data) ? 3000 : false),
  });
}

/** A trained model by its inference name (`team/project/name`); null when there is none. */
export function useTrainedModelByName(name: string | undefined) {
  const [team, project, model] = name?.split("/") ?? [];
  return useQuery({
    queryKey: modelKeys.byName(name ?? ""),
    queryFn: async ({ signal }) => {
      const query = new URLSearchParams({ project: `${team}/${project}`, name: model, limit: "1" });
      return (await apiFetch<z.infer<typeof modelPage>>(`/v1/preview/models?${query}`, { signal })).data[0] ?? null;
    },
    enabled: Boolean(model),
  });
}

/** Newest first, with "load more". */
export function useTrajectoryGroups(id: string, filter: GroupFilter) {
  return useInfiniteQuery({
    queryKey: modelKeys.groups(id, filter),
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: String(PAGE_SIZE), order: "desc" });
      if (filter.split) query.set("split", filter.split);
      if (filter.step !== undefined) query.set("step", String(filter.step));
      if (pageParam) query.set("after", pageParam);
      return apiFetch<z.infer<typeof loggedTrajectoryGroupPage>>(`/v1/preview/models/${segment(id)}/trajectory-groups?${query}`, { signal });
    },
    initialPageParam: "",
    getNextPageParam: (page) => (page.has_more ? page.last_id : undefined),
    select: (data) => data.pages.flatMap((page) => page.data),
  });
}

/** The adapter's size and, given tokens and steps (or RL rows), the job's estimated time and memory. */
export function useTrainingEstimate(query: EstimateQuery | null) {
  return useQuery({
    queryKey: modelKeys.estimate(query ?? { base_model: "", rank: 0, target_modules: [] }),
    queryFn: ({ signal }) => {
      const q = query!;
      const params = new URLSearchParams({ base_model: q.base_model, rank: String(q.rank), target_modules: q.target_modules.join(",") });
      if (q.tokens) params.set("tokens", String(q.tokens));
      if (q.steps) params.set("steps", String(q.steps));
      if (q.rl_rows) params.set("rl_rows", String(q.rl_rows));
      return apiFetch<TrainingEstimate>(`/v1/preview/training-estimate?${params}`, { signal });
    },
    enabled: Boolean(query && query.target_modules.length > 0),
    placeholderData: (previous) => previous, // the numbers stay while a changed rank is asked about
    staleTime: Infinity, // a base's shapes do not change under it
  });
}

export function useCreateModel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateModelInput) => apiFetch<z.infer<typeof modelSchema>>("/v1/preview/models", { method: "POST", body }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: modelKeys.lists() });
      void client.invalidateQueries({ queryKey: inferenceKeys.models() }); // the playground's picker lists it
    },
  });
}

export function useDeleteModel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<z.infer<typeof deletedModelSchema>>(`/v1/preview/models/${segment(id)}`, { method: "DELETE" }),
    onSuccess: (_, id) => {
      client.removeQueries({ queryKey: modelKeys.detail(id) });
      void client.invalidateQueries({ queryKey: modelKeys.lists() });
      void client.invalidateQueries({ queryKey: inferenceKeys.models() });
    },
  });
}

export function useDeleteCheckpoints(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (steps: number[]) =>
      apiFetch<z.infer<typeof deletedCheckpointsSchema>>(`/v1/preview/models/${segment(id)}/checkpoints`, { method: "DELETE", body: { steps } }),
    // The model's latest checkpoint, its checkpoints and the lists showing them all change.
    onSettled: () => {
      void client.invalidateQueries({ queryKey: modelKeys.detail(id) });
      void client.invalidateQueries({ queryKey: modelKeys.lists() });
    },
  });
}
