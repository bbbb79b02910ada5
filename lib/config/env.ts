import path from "node:path";
import { z } from "zod";

// The validated environment, read lazily (never at import: Next's build imports route modules).
// Every variable is documented in README.md's configuration table.
const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  ANNEAL_DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must be a postgres:// or postgresql:// URL")
    .optional(),
  ANNEAL_ADMIN_USERNAME: z.string().min(1).default("admin"),
  ANNEAL_ADMIN_EMAIL: z.string().email().optional(),
  ANNEAL_ADMIN_PASSWORD: z.string().min(8, "ANNEAL_ADMIN_PASSWORD must have at least 8 characters").optional(),
  ANNEAL_INIT_API_KEY: z.string().min(20, "ANNEAL_INIT_API_KEY must have at least 20 characters").optional(),
  NEXTAUTH_SECRET: z.string().min(16).optional(),
  NEXTAUTH_URL: z.string().url().optional(),
  /** Reverse proxies in front that append the client's address to X-Forwarded-For (0: none, the
   *  header is the client's own word and ignored). Used to throttle password guesses per address. */
  ANNEAL_TRUSTED_PROXIES: z.coerce.number().int().min(0).max(10).default(0),
  ANNEAL_LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  ANNEAL_MODELS_FILE: z.string().min(1).optional(),
  /** Where base-model GGUFs an admin registers through the API live (default: <data dir>/models);
   *  POST /v1/preview/base-models takes only files under it. */
  ANNEAL_MODELS_DIR: z.string().min(1).optional(),
  ANNEAL_DEFAULT_MODEL: z.string().min(1).optional(),
  ANNEAL_INFERENCE_QUEUE: z.coerce.number().int().min(0).default(64),
  /** Sequences per llama.cpp context: 1 decodes each request in a context of its own, in parallel
   *  (the fastest on CPUs); more share a context's batches and memory (large GGUFs). */
  ANNEAL_INFERENCE_SEQUENCES_PER_CONTEXT: z.coerce.number().int().min(1).max(8).default(1),
  /** On SIGTERM, how long npm start lets requests in flight (a streamed completion) finish before
   *  it cuts them; it accepts no new connection meanwhile. */
  ANNEAL_SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(15_000),
  /** Training jobs: how long a claim lasts without a heartbeat, how often the owner renews it,
   *  how often idle workers look for work, and how many claims a job gets before it fails. */
  ANNEAL_JOB_LEASE_MS: z.coerce.number().int().min(100).default(30_000),
  ANNEAL_JOB_HEARTBEAT_MS: z.coerce.number().int().min(20).default(5_000),
  ANNEAL_JOB_POLL_MS: z.coerce.number().int().min(20).default(1_000),
  ANNEAL_JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(3),
  ANNEAL_JOB_STALL_MS: z.coerce.number().int().min(100).default(600_000),
  /** Jobs one process trains at once (each on its own thread). 0 in npm start: no embedded runner. */
  ANNEAL_TRAINING_CONCURRENCY: z.coerce.number().int().min(0).default(1),
  /** A running job saves its training state (weights, AdamW moments, step) every this many gradient
   *  steps or seconds, whichever comes first (0: not by that measure; both 0: never), so a retry
   *  after a crash resumes from it instead of step 0. 10 s bounds the work a crash loses to a third
   *  of the lease a failover waits anyway, at ~1–2% of tiny-chat's training time (a 12 MB save). */
  ANNEAL_TRAINING_SAVE_STEPS: z.coerce.number().int().min(0).default(500),
  ANNEAL_TRAINING_SAVE_SECONDS: z.coerce.number().min(0).default(10),
  /** RL jobs: training rows (a trajectory's histories) per gradient step, within rlTokensPerStep
   *  padded tokens. Measured on tiny-chat-2's arithmetic: at 16 a step's gradient was mostly noise
   *  and held-out accuracy fell; at 128 it rose (docs/decisions.md, "RL: 128 rows per step"). */
  ANNEAL_RL_ROWS_PER_STEP: z.coerce.number().int().min(1).max(4096).default(128),
  /** An SFT job a remote worker trained on a GGUF base this server serves: how long the server's
   *  guard rails (greedy replies before/after on its own engine, docs/workers.md "Guard rails") may
   *  take inside the worker's complete call before they are cut short, saying so; 0: not run. Under
   *  the Python worker's 120 s read timeout, with room for the checkpoint's import. */
  ANNEAL_REMOTE_GUARD_RAILS_MS: z.coerce.number().int().min(0).max(100_000).default(60_000),
  /** npm run worker as a remote worker (docs/workers.md): Anneal's address and a worker key (or --server, --key). */
  ANNEAL_WORKER_SERVER: z.string().url().optional(),
  ANNEAL_WORKER_KEY: z.string().min(1).optional(),
  /** How long an annotator's claim on a queue item lasts; an expired claim returns the item to the pool. */
  ANNEAL_ANNOTATION_CLAIM_MS: z.coerce.number().int().min(100).default(600_000),
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

export class InvalidEnvironmentError extends Error {}

export function getEnv(): Env {
  if (cached) return cached;
  const blankAsUnset = Object.fromEntries(
    Object.entries(process.env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const parsed = envSchema.safeParse(blankAsUnset);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new InvalidEnvironmentError(`Invalid environment:\n${problems}`);
  }
  cached = parsed.data;
  return cached;
}

/** Drop the cached environment (tests and the CLI change process.env). */
export function resetEnvCache(): void {
  cached = undefined;
}

export function dataDir(env: Env = getEnv()): string {
  return path.resolve(env.ANNEAL_DATA_DIR);
}
