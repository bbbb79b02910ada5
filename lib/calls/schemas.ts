import { z } from "zod";
import { projectRefSchema } from "@/lib/auth/names";
import { pageQuerySchema, pageSchema } from "@/lib/http/pagination";

// Recorded calls (every chat completion, contract.md "Chat completions"): what the console lists to
// pick conversations for SFT, and what scripts read back. The request's messages and the answer's
// first message are on every item; the whole recorded request and response only on GET one.

export const CALL_STATUSES = ["success", "error", "cancelled"] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

export const callParams = z.object({ call_id: z.string().uuid() });

export const listCallsQuery = pageQuerySchema.extend({
  order: z.enum(["asc", "desc"]).default("desc").describe("By start time; newest first by default."),
  project: projectRefSchema.optional().describe("Only this project's calls: `<team>/<project>` (default: every project the caller may use)."),
  model: z.string().min(1).max(512).optional().describe("Only calls served by this model: an exact inference name, or a trained model's name without `:stepN` for all its checkpoints."),
  status: z.enum(CALL_STATUSES).optional(),
});
export type ListCallsQuery = z.infer<typeof listCallsQuery>;

const message = z.record(z.string(), z.unknown());

export const callSchema = z.object({
  id: z.string().uuid(),
  object: z.literal("call"),
  /** `team/project` the call is attributed to. */
  project: z.string(),
  /** `svc:///team/project/call/<id>`, what feedback and annotation queues refer to. */
  ref: z.string(),
  /** The inference name as served (a trained model's `name:stepN`). */
  model: z.string(),
  base_model: z.string(),
  model_id: z.string().uuid().nullable().describe("The trained model that served it; null for a base model."),
  checkpoint_step: z.number().int().nullable(),
  status: z.enum(CALL_STATUSES),
  error: z.string().nullable(),
  created_at: z.string().describe("When the request started."),
  ended_at: z.string().nullable(),
  latency_ms: z.number().int().nullable(),
  usage: z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int() }),
  /** The request's messages as sent. */
  messages: z.array(message),
  /** The first choice's message (role assistant); null when the call produced none. */
  output: message.nullable(),
});
export type CallDto = z.infer<typeof callSchema>;
export const callPage = pageSchema(callSchema);

export const callDetailSchema = callSchema.extend({
  /** The chat completions request as recorded (after validation and defaults). */
  request: z.record(z.string(), z.unknown()),
  /** The response as recorded (every choice), or null. */
  response: z.record(z.string(), z.unknown()).nullable(),
});
export type CallDetailDto = z.infer<typeof callDetailSchema>;
