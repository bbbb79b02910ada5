"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type { ChatCompletionChunk } from "@/lib/inference/chat-response";
import type { chatCompletionRequestSchema } from "@/lib/inference/chat-request";
import type { listModelsOp, modelSchema } from "@/lib/inference/operations";
import type { usageQuerySchema, usageSchema } from "@/lib/inference/usage";
import { apiFetch } from "@/lib/client/api-fetch";

// The inference domain's data for the console: one query-key factory and a hook per GET. Shapes
// are the API's own zod schemas (lib/inference/*), imported as types only. Chat completions
// stream through a plain fetch (components/playground/use-chat-run.ts), not react-query.

export type Model = z.infer<typeof modelSchema>;
type ModelList = z.infer<NonNullable<(typeof listModelsOp)["response"]>>;
export type UsageQuery = z.infer<typeof usageQuerySchema>;
export type UsageReport = z.infer<typeof usageSchema>;
export type UsageRow = UsageReport["data"][number];
/** A chat completions request body as a client writes it (before defaults). */
export type ChatCompletionBody = z.input<typeof chatCompletionRequestSchema>;
export type LogprobToken = NonNullable<NonNullable<ChatCompletionChunk["choices"][number]["logprobs"]>["content"]>[number];
export type Usage = NonNullable<ChatCompletionChunk["usage"]>;

export const inferenceKeys = {
  all: ["inference"] as const,
  models: () => [...inferenceKeys.all, "models"] as const,
  usage: (query: UsageQuery) => [...inferenceKeys.all, "usage", query] as const,
};

export function useModels() {
  return useQuery({
    queryKey: inferenceKeys.models(),
    queryFn: ({ signal }) => apiFetch<ModelList>("/v1/models", { signal }),
    select: (list) => list.data,
  });
}

export function useUsage(query: UsageQuery, options: { enabled?: boolean } = {}) {
  return useQuery({
    enabled: options.enabled ?? true,
    queryKey: inferenceKeys.usage(query),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1])));
      return apiFetch<UsageReport>(`/v1/usage?${params}`, { signal });
    },
    placeholderData: keepPreviousData,
  });
}
