import { z } from "zod";
import { defineOperation } from "@/lib/contract/operation";
import { chatCompletionRequestSchema } from "@/lib/inference/chat-request";
import { chatCompletionSchema } from "@/lib/inference/chat-response";
import { usageQuerySchema, usageSchema } from "@/lib/inference/usage";

export const createChatCompletionOp = defineOperation({
  id: "createChatCompletion", method: "POST", path: "/v1/chat/completions", tag: "Inference", auth: "bearer", openaiErrors: true,
  summary: "OpenAI/vLLM-compatible chat completion (JSON, or SSE with stream: true); recorded as a call",
  body: chatCompletionRequestSchema, response: chatCompletionSchema,
});

export const modelSchema = z.object({
  id: z.string(),
  object: z.literal("model"),
  created: z.number().int(),
  owned_by: z.string(),
  root: z.string(),
  parent: z.string().nullable(),
  trainable: z.boolean(),
  train_modes: z
    .array(z.enum(["full", "lora"]))
    .optional()
    .describe("Base models: how models of it may train (full weights, a LoRA adapter); empty when serve-only."),
  default: z.boolean(),
  description: z.string().optional(),
});

export const listModelsOp = defineOperation({
  id: "listModels", method: "GET", path: "/v1/models", tag: "Inference", auth: "bearer",
  summary: "Models this caller can use: base models first (the default marked), then trained models",
  response: z.object({ object: z.literal("list"), data: z.array(modelSchema) }),
});

export const getUsageOp = defineOperation({
  id: "getUsage", method: "GET", path: "/v1/usage", tag: "Inference", auth: "bearer",
  summary: "Daily inference usage (requests, tokens) per team, project and model",
  query: usageQuerySchema, response: usageSchema,
});
