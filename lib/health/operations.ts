import { z } from "zod";
import { defineOperation } from "@/lib/contract/operation";

const check = z.object({
  success: z.boolean(),
  duration: z.number().describe("Seconds the check took."),
  error: z.string().nullable(),
  skipped: z.boolean().optional().describe("True when the dependency is not configured."),
});

export const systemCheckSchema = z.object({
  api: z.literal(true),
  database: z.boolean(),
  database_check: check,
  cpu_queue: check.extend({
    workers: z.number().int().optional().describe("Training processes seen within a lease length."),
    queued: z.number().int().optional(),
    running: z.number().int().optional(),
  }),
  gpu_queue: check,
  engine: check.extend({ backend: z.string().nullable() }),
});
export type SystemCheck = z.infer<typeof systemCheckSchema>;
export type Check = z.infer<typeof check>;

export const healthOp = defineOperation({
  id: "health", method: "GET", path: "/v1/health", tag: "Health", auth: "public",
  summary: "Liveness: 200 while the process serves",
  response: z.object({ status: z.literal("ok") }),
});

export const systemCheckOp = defineOperation({
  id: "systemCheck", method: "GET", path: "/v1/system-check", tag: "Health", auth: "public",
  summary: "Real checks of the database, job queues and engine; 503 when a configured one fails",
  response: systemCheckSchema,
});

export const openApiOp = defineOperation({
  id: "openapi", method: "GET", path: "/v1/openapi.json", tag: "Health", auth: "public",
  summary: "This API's OpenAPI 3.1 document, generated from its zod schemas",
  response: z.record(z.string(), z.unknown()),
});
