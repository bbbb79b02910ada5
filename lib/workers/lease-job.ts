// POST /v1/workers/lease (docs/workers.md "A worker's life"): the worker checks in (its RemoteWorker
// row: capabilities, last seen), is asked to probe a base it offers that is not checked yet, and
// otherwise takes the next job it can train by the database queue's own rules (claimJob with a
// filter), fenced by a token of this attempt.
import type { Prisma } from "@/lib/db/generated/client";
import type { WorkerPrincipal } from "@/lib/auth/principal";
import { getEnv } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { namesOf, type BaseModel } from "@/lib/inference/base-models";
import type { JobRun } from "@/lib/training/jobs/load-job-task";
import { claimJob, failAbandonedJobs, type ClaimedJob } from "@/lib/training/jobs/queue";
import { removeJobStates } from "@/lib/training/jobs/saved-states";
import type { JobKind } from "@/lib/training/jobs/schemas";
import { storedLoraSettings } from "@/lib/engine/model/lora-settings";
import { probeIdsOf, recordProbe, resolveOfferedBase, UNCHECKED } from "./base-probe";
import { leaseOwnerOf, newLeaseToken } from "./lease-token";
import { probeResultsOf } from "./probe-results";
import type { Capabilities } from "./schemas";

/** How long a worker with nothing to do waits before asking again. */
const RETRY_AFTER_MS = 2000;
const FORGET_AFTER_MS = 86_400_000;

export async function leaseJob(principal: WorkerPrincipal, input: { instance: string; capabilities: Capabilities }) {
  const db = getDb();
  const { capabilities } = input;
  const worker = await db.remoteWorker.upsert({
    where: { keyId_instance: { keyId: principal.workerKey.id, instance: input.instance } },
    create: { keyId: principal.workerKey.id, instance: input.instance, capabilities },
    update: { capabilities, lastSeenAt: new Date() },
    select: { id: true, probes: true },
  });
  // Each worker process is an instance of its own: those gone for a day are forgotten (as runners are).
  await db.remoteWorker.deleteMany({ where: { lastSeenAt: { lt: new Date(Date.now() - FORGET_AFTER_MS) } } });
  const probes = probeResultsOf(worker.probes);
  const accepted: BaseModel[] = [];
  for (const offered of new Set(capabilities.bases)) {
    const base = await resolveOfferedBase(offered);
    if (!base) continue; // a base this instance does not know has no jobs
    const verdict = probes[base.name];
    if (!verdict && base.gguf) return { lease: null, probe: { base: offered, ids: await probeIdsOf({ gguf: base.gguf }) } };
    if (!verdict) await recordProbe(worker.id, base.name, UNCHECKED);
    if (verdict?.passed ?? true) accepted.push(base);
  }
  const idle = { lease: null, retry_after_ms: RETRY_AFTER_MS };
  if (accepted.length === 0) return idle;

  const env = getEnv();
  // No embedded runner may be running to fail jobs whose every attempt was used: do it here too.
  for (const id of await failAbandonedJobs(env.ANNEAL_JOB_MAX_ATTEMPTS)) removeJobStates(id);
  const token = newLeaseToken(principal);
  const claimed = await claimJob(leaseOwnerOf(token), env.ANNEAL_JOB_LEASE_MS, env.ANNEAL_JOB_MAX_ATTEMPTS, {
    kinds: capabilities.kinds,
    baseModels: accepted.flatMap(namesOf),
    modes: capabilities.modes,
    maxRank: capabilities.max_rank,
    teamId: principal.workerKey.teamId,
  });
  if (!claimed) return idle;

  const base = accepted.find((b) => namesOf(b).includes(claimed.baseModel))!;
  return { lease: await startRemoteRun(claimed, token, input.instance, base, env.ANNEAL_JOB_LEASE_MS) };
}

/** A claim's lease as its worker (or job bundle) gets it, once the attempt is recorded in the job's
 *  `runs` (who runs it, from which saved step). */
export async function startRemoteRun(claimed: ClaimedJob, token: string, instance: string, base: BaseModel, leaseMs: number) {
  const db = getDb();
  const job = await db.trainingJob.findUniqueOrThrow({
    where: { id: claimed.id },
    select: { runs: true, resumeStep: true, leaseExpiresAt: true, model: { select: { lora: true } } },
  });
  const run: JobRun = {
    attempt: claimed.attempts, worker: `remote:${instance}`, hostname: instance, pid: 0,
    resumedFromStep: job.resumeStep ?? 0, startedAt: new Date().toISOString(),
  };
  await db.trainingJob.updateMany({
    where: { id: claimed.id, leaseOwner: leaseOwnerOf(token) },
    data: { runs: [...(job.runs as unknown as JobRun[]), run] as unknown as Prisma.InputJsonValue },
  });
  return {
    token,
    job_id: claimed.id,
    attempt: claimed.attempts,
    kind: claimed.kind as JobKind,
    mode: storedLoraSettings(job.model.lora) ? ("lora" as const) : ("full" as const),
    base: { name: base.name, hf_name: base.hfNames[0] ?? null },
    lease_ms: leaseMs,
    heartbeat_ms: getEnv().ANNEAL_JOB_HEARTBEAT_MS,
    expires_at: job.leaseExpiresAt!.toISOString(),
  };
}
