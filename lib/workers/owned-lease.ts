// A remote lease's calls find their job through the token (docs/workers.md "Fencing"): the job must
// be running with `remote:<token>` as its leaseOwner, and the token must be this worker key's. A
// token that no longer holds its job (the lease expired and another worker took it, the job ended,
// the key was revoked) is a 409 on every route, and nothing is written: every write below is also
// conditional on the lease in its own transaction (lib/training/jobs/queue.ts).
import type { WorkerPrincipal } from "@/lib/auth/principal";
import { conflict } from "@/lib/contract/errors";
import { getDb } from "@/lib/db/client";
import type { JobRun } from "@/lib/training/jobs/load-job-task";
import { leaseOwnerOf, tokenOfKey } from "./lease-token";

export interface OwnedLease {
  jobId: string;
  /** The job's leaseOwner while this lease holds it: what the queue's owned writes check. */
  owner: string;
  attempt: number;
  /** The worker process (its `instance`) this attempt was leased to. */
  instance: string;
  stepsDone: number;
  numSequences: number | null;
  resumeStep: number | null;
  resumeState: string | null;
  resumeFormat: string | null;
  model: { id: string; name: string; baseModel: string; lora: unknown; currentStep: number; fullName: string };
}

export const leaseLost = () =>
  conflict("This lease was lost: the job ended or was cancelled, its lease expired and another worker took it over, or the worker key was revoked. Stop work on it and lease again.");

export async function findOwnedLease(principal: WorkerPrincipal, token: string): Promise<OwnedLease> {
  if (!tokenOfKey(token, principal)) throw leaseLost();
  return leaseOfOwner(leaseOwnerOf(token));
}

/** The running job this lease owner holds (a worker's lease, or a job bundle's). */
export async function leaseOfOwner(owner: string): Promise<OwnedLease> {
  const job = await getDb().trainingJob.findFirst({
    where: { leaseOwner: owner, status: "running" },
    select: {
      id: true, attempts: true, runs: true, stepsDone: true, numSequences: true, resumeStep: true, resumeState: true, resumeFormat: true,
      model: { select: { id: true, name: true, baseModel: true, lora: true, currentStep: true, project: { select: { name: true, team: { select: { name: true } } } } } },
    },
  });
  if (!job) throw leaseLost();
  const { project, ...model } = job.model;
  return {
    jobId: job.id, owner, attempt: job.attempts, instance: (job.runs as unknown as JobRun[]).at(-1)?.hostname ?? "", stepsDone: job.stepsDone, numSequences: job.numSequences,
    resumeStep: job.resumeStep, resumeState: job.resumeState, resumeFormat: job.resumeFormat,
    model: { ...model, fullName: `${project.team.name}/${project.name}/${model.name}` },
  };
}
