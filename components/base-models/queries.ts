"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { inferenceKeys } from "@/components/inference/queries";
import type { baseModelCandidatesSchema, baseModelInfoSchema, baseModelListSchema, createBaseModelBody, deletedBaseModelSchema } from "@/lib/base-models/schemas";
import { apiFetch } from "@/lib/client/api-fetch";

// Base models managed by the instance's admins (GET/POST /v1/preview/base-models, DELETE …/{id},
// GET …/candidates): one query-key factory, one hook per call. Shapes are the API's own zod schemas
// (lib/base-models/schemas.ts), imported as types only. Adding or removing one changes what
// GET /v1/models lists, so the pickers that read it are refreshed too.

export type { BaseModelCandidate, BaseModelInfo } from "@/lib/base-models/schemas";
export type AddBaseModelInput = z.input<typeof createBaseModelBody>;

export const baseModelKeys = {
  all: ["base-models"] as const,
  list: () => [...baseModelKeys.all, "list"] as const,
  candidates: () => [...baseModelKeys.all, "candidates"] as const,
};

export function useBaseModels() {
  return useQuery({
    queryKey: baseModelKeys.list(),
    queryFn: ({ signal }) => apiFetch<z.infer<typeof baseModelListSchema>>("/v1/preview/base-models", { signal }),
    select: (page) => page.data,
  });
}

export function useBaseModelCandidates(enabled: boolean) {
  return useQuery({
    queryKey: baseModelKeys.candidates(),
    queryFn: ({ signal }) => apiFetch<z.infer<typeof baseModelCandidatesSchema>>("/v1/preview/base-models/candidates", { signal }),
    select: (page) => page.data,
    enabled,
  });
}

function useRefreshBases() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: baseModelKeys.all });
    void client.invalidateQueries({ queryKey: inferenceKeys.models() });
  };
}

export function useAddBaseModel() {
  const refresh = useRefreshBases();
  return useMutation({
    mutationFn: (body: AddBaseModelInput) => apiFetch<z.infer<typeof baseModelInfoSchema>>("/v1/preview/base-models", { method: "POST", body }),
    onSuccess: refresh,
  });
}

export function useRemoveBaseModel() {
  const refresh = useRefreshBases();
  return useMutation({
    mutationFn: (id: string) => apiFetch<z.infer<typeof deletedBaseModelSchema>>(`/v1/preview/base-models/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: refresh,
  });
}
