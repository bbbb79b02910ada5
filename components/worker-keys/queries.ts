"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { KeyInput } from "@/components/keys/create-key-dialog";
import type { createdWorkerKeySchema, workerKeyListSchema, workerKeySchema } from "@/lib/workers/schemas";
import { apiFetch } from "@/lib/client/api-fetch";

// Worker keys, the instance admins' (GET/POST /v1/preview/worker-keys, DELETE …/{id}): one
// query-key factory, one hook per call. Shapes are the API's own zod schemas (lib/workers/schemas.ts),
// imported as types only.

export type WorkerKey = z.infer<typeof workerKeySchema>;
export type CreatedWorkerKey = z.infer<typeof createdWorkerKeySchema>;

export const workerKeyKeys = {
  all: ["worker-keys"] as const,
  list: () => [...workerKeyKeys.all, "list"] as const,
};

/** Workers come and go: the list (who is online) is asked again every half minute. */
const LIVE_REFRESH_MS = 30_000;

export function useWorkerKeys() {
  return useQuery({
    queryKey: workerKeyKeys.list(),
    queryFn: ({ signal }) => apiFetch<z.infer<typeof workerKeyListSchema>>("/v1/preview/worker-keys", { signal }),
    select: (page) => page.data,
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export function useCreateWorkerKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: KeyInput) => apiFetch<CreatedWorkerKey>("/v1/preview/worker-keys", { method: "POST", body }),
    onSuccess: () => client.invalidateQueries({ queryKey: workerKeyKeys.all }),
  });
}

export function useRevokeWorkerKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<WorkerKey>(`/v1/preview/worker-keys/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => client.invalidateQueries({ queryKey: workerKeyKeys.all }),
  });
}
