import { z } from "zod";
import { JOB_KINDS } from "@/lib/training/jobs/schemas";

// The remote-worker protocol (docs/workers.md, version 1): worker keys (instance admins), and what a
// worker sends and gets under /v1/workers. The route wrapper validates with these and the OpenAPI
// document is built from them; H3's Node worker and the Python worker read the same shapes.

export const PROTOCOL_VERSION = 1;
/** The largest chunk of an upload one PUT may carry. */
export const UPLOAD_CHUNK_BYTES = 16 * 1024 * 1024;

const TRAIN_MODES = ["lora", "full"] as const;
const name = z.string().min(1).max(200);

// ---- worker keys ----------------------------------------------------------------------------

export const createWorkerKeyBody = z.object({
  name: z.string().min(1).max(128),
  team: z.string().min(1).nullable().optional().describe("A team's name: the key takes only that team's jobs. Null or absent: any team's."),
});

export const workerKeyParams = z.object({ worker_key_id: z.string().uuid() });

const probeResultSchema = z.object({
  passed: z.boolean(),
  checked: z.boolean().describe("false: Anneal holds no GGUF of that base, so it was accepted unchecked."),
  mean_abs_delta: z.number().nullable(),
  tolerance: z.number().nullable(),
});

export const capabilitiesSchema = z.object({
  kinds: z.array(z.enum(JOB_KINDS)).min(1).describe("The job kinds it trains."),
  modes: z.array(z.enum(TRAIN_MODES)).min(1).describe("lora (an adapter over the base) and/or full weights."),
  bases: z.array(name).max(100).describe("The bases it holds, by hf_name or Anneal's name."),
  max_rank: z.int().min(1).max(4096).describe("The largest LoRA rank it trains."),
  memory_bytes: z.int().min(0).optional().describe("Its accelerator's memory (reported, not yet used to pick jobs)."),
});
export type Capabilities = z.infer<typeof capabilitiesSchema>;

const remoteWorkerSchema = z.object({
  instance: z.string(),
  capabilities: capabilitiesSchema,
  probes: z.record(z.string(), probeResultSchema).describe("Per base (Anneal's name): the probe's verdict."),
  last_seen_at: z.iso.datetime(),
});

export const workerKeySchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  prefix: z.string().describe("The key's first 12 characters, to tell keys apart."),
  team: z.string().nullable(),
  created_at: z.iso.datetime(),
  revoked_at: z.iso.datetime().nullable(),
  last_seen_at: z.iso.datetime().nullable().describe("When one of its workers last leased or heartbeat; null: none in the last day (workers unseen for a day are forgotten)."),
  workers: z.array(remoteWorkerSchema).describe("Its workers seen in the last 5 minutes."),
});
export type WorkerKeyDto = z.infer<typeof workerKeySchema>;
export const createdWorkerKeySchema = workerKeySchema.extend({ key: z.string().describe("The secret (awk-…), shown this once.") });
export const workerKeyListSchema = z.object({ data: z.array(workerKeySchema) });

// ---- lease ----------------------------------------------------------------------------------

export const leaseBody = z.object({
  instance: z.string().min(1).max(200).describe("Names this worker process (stable while it runs)."),
  version: z.literal(PROTOCOL_VERSION).describe("The protocol version the worker speaks."),
  capabilities: capabilitiesSchema,
});

const leaseSchema = z.object({
  token: z.string().describe("Names this attempt of this job in every later call; stale once the lease is lost."),
  job_id: z.string().uuid(),
  attempt: z.int(),
  kind: z.enum(JOB_KINDS),
  mode: z.enum(TRAIN_MODES),
  base: z.object({ name: z.string(), hf_name: z.string().nullable() }),
  lease_ms: z.int(),
  heartbeat_ms: z.int(),
  expires_at: z.iso.datetime(),
});

export const probeRequestSchema = z.object({
  base: z.string().describe("The base to probe, as the worker offered it."),
  ids: z.array(z.int().min(0)).describe("Token ids in that base's vocabulary."),
});

export const leaseAnswerSchema = z.object({
  lease: leaseSchema.nullable(),
  probe: probeRequestSchema.optional().describe("A base it offered is not checked yet: answer POST /v1/workers/probe first."),
  retry_after_ms: z.int().optional().describe("Nothing it can take now: ask again after this long."),
});

export const probeBody = z.object({
  instance: z.string().min(1).max(200),
  base: name,
  logprobs: z.array(z.number()).min(2).max(4096).describe("log π(ids[i] | ids[<i]) for each i ≥ 1; entry 0 is 0."),
});
export const probeAnswerSchema = z.object({ base: z.string(), ...probeResultSchema.shape });

// ---- a lease's calls ------------------------------------------------------------------------

// Any string: a token that is not a live lease of this key, well formed or not, is a lost lease (409).
export const leaseParams = z.object({ token: z.string().min(1).max(200) });
export const uploadParams = leaseParams.extend({ upload_id: z.string().uuid() });

export const leaseStatusSchema = z.object({ cancel_requested: z.boolean(), expires_at: z.iso.datetime() });

export const eventsBody = z.object({
  events: z
    .array(z.object({ type: z.literal("gradient_step"), data: z.object({ step: z.int().min(1) }).catchall(z.number()) }))
    .max(10_000),
});
export const eventsAnswerSchema = z.object({ cancel_requested: z.boolean(), written: z.int().describe("Events written (steps already in the feed are skipped).") });

export const startAdapterQuery = z.object({ format: z.enum(["peft", "gguf-lora"]).default("peft") });

export const createUploadBody = z.object({
  purpose: z.enum(["checkpoint", "state"]),
  bytes: z.int().min(1).max(64 * 1024 * 1024 * 1024),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, "64 lower-case hex digits"),
});
export const uploadCreatedSchema = z.object({ upload_id: z.string().uuid(), chunk_bytes: z.int() });
export const uploadReceivedSchema = z.object({ received: z.int().describe("The contiguous prefix held, in bytes.") });
export const chunkBody = z.instanceof(Uint8Array);

export const commitStateBody = z.object({
  upload_id: z.string().uuid(),
  step: z.int().min(1),
  format: z.string().regex(/^[a-z0-9][a-z0-9.-]{0,63}$/, "a short lower-case name such as anneal-torch-peft-1"),
});
export const commitStateAnswerSchema = z.object({ resume_step: z.int() });

export const completeBody = z.object({
  upload_id: z.string().uuid(),
  metrics: z.record(z.string(), z.number()).default({}),
});
export const completeAnswerSchema = z.object({ checkpoint_step: z.int() });

export const failBody = z.object({
  message: z.string().max(10_000).default("The remote worker failed."),
  cancelled: z.boolean().default(false),
  release: z.boolean().default(false).describe("Hand the job back to the queue without counting the attempt."),
});
export const failAnswerSchema = z.object({ status: z.enum(["failed", "cancelled", "queued"]) });

// ---- job bundles ----------------------------------------------------------------------------

export const bundleBody = z.object({
  lease_hours: z.number().min(0.01).max(168).default(24).describe("How long the bundle holds the job: past it, another worker may take the job over."),
});
export const bundleResultBody = z.instanceof(Uint8Array);
