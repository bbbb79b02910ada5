import { z } from "zod";

// The chat completion response (spec §4.1) and the streamed chunk (vLLM's SSE sequence).

const topLogprob = z.object({ token: z.string(), logprob: z.number(), bytes: z.array(z.number().int()).nullable() });
export const logprobsSchema = z.object({
  content: z.array(topLogprob.extend({ top_logprobs: z.array(topLogprob) })).nullable(),
});

export const usageSchema = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
  prompt_tokens_details: z.object({ cached_tokens: z.number().int() }).nullable().optional(),
});

export const chatMessageResponseSchema = z.object({
  role: z.literal("assistant"),
  content: z.string().nullable(),
  refusal: z.string().nullable(),
  annotations: z.array(z.unknown()).nullable(),
  audio: z.unknown().nullable(),
  function_call: z.unknown().nullable(),
  tool_calls: z.array(z.unknown()),
  reasoning: z.string().nullable(),
});

export const chatCompletionSchema = z.object({
  id: z.string(),
  object: z.literal("chat.completion"),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: chatMessageResponseSchema,
      logprobs: logprobsSchema.nullable(),
      finish_reason: z.string(),
      stop_reason: z.number().int().nullable(),
      token_ids: z.array(z.number().int()).nullable(),
    }),
  ),
  usage: usageSchema,
  service_tier: z.enum(["auto", "default", "flex", "scale", "priority"]).nullable(),
  system_fingerprint: z.string().nullable(),
  prompt_logprobs: z.array(z.unknown()).nullable(),
  prompt_token_ids: z.array(z.number().int()).nullable(),
  kv_transfer_params: z.record(z.string(), z.unknown()).nullable(),
});
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;

export const chatCompletionChunkSchema = z.object({
  id: z.string(),
  object: z.literal("chat.completion.chunk"),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({ role: z.literal("assistant").optional(), content: z.string().optional() }),
      logprobs: logprobsSchema.nullable(),
      finish_reason: z.string().nullable(),
      stop_reason: z.number().int().nullable().optional(),
      token_ids: z.array(z.number().int()).nullable().optional(),
    }),
  ),
  usage: usageSchema.nullable().optional(),
  prompt_token_ids: z.array(z.number().int()).nullable().optional(),
});
export type ChatCompletionChunk = z.infer<typeof chatCompletionChunkSchema>;
