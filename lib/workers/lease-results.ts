// What a remote worker hands in under its lease (docs/workers.md, steps 7 and 8): a saved state,
// committed as the job's resume point, and the checkpoint, checked and recorded by the same path as
// an imported adapter (checkpoint-import.ts) in one transaction with the job's end (complete-job.ts),
// an SFT job's guard rails measured on it first (remote-guard-rails.ts).
import fs from "node:fs";
import path from "node:path";
import { AppError, badRequest } from "@/lib/contract/errors";
import { getEnv } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { ggufSummary } from "@/lib/engine/gguf/gguf-summary";
import { completeJob } from "@/lib/training/jobs/complete-job";
import { CANCELLED_MESSAGE } from "@/lib/training/jobs/job-writes";
import { absoluteCheckpointPath, checkpointFileFor, optimizerStatePath, removeCheckpointFiles } from "@/lib/training/jobs/job-files";
import { commitSavedState, jobStateDir, removeJobStates } from "@/lib/training/jobs/saved-states";
import { writeImportedAdapter } from "@/lib/training/models/checkpoint-import";
import { storedLoraSettings } from "@/lib/engine/model/lora-settings";
import { trainableBase } from "@/lib/training/trainable-base";
import { failLease } from "./lease-progress";
import { leaseLost, type OwnedLease } from "./owned-lease";
import { remoteSftChecks } from "./remote-guard-rails";
import { assembleUpload, claimUpload, releaseUpload, removeUpload } from "./uploads";

export async function commitLeaseState(lease: OwnedLease, input: { upload_id: string; step: number; format: string }) {
  const whole = assembleUpload(lease, input.upload_id, "state");
  const file = path.join(jobStateDir(lease.jobId), `a${lease.attempt}-s${input.step}.${input.format}`);
  fs.renameSync(whole, file);
  removeUpload(lease, input.upload_id);
  const state = await commitSavedState(lease.jobId, lease.owner, { step: input.step, file, bytes: fs.statSync(file).size, ms: 0 }, input.format);
  if (!state.owned) {
    fs.rmSync(file, { force: true });
    throw leaseLost();
  }
  return { resume_step: input.step };
}

/** A worker that lost the connection while an SFT job's guard rails ran (up to a minute) calls again,
 *  maybe on another web process: that call must not record the checkpoint a second time over the file
 *  the first is recording. So one call at a time claims the upload, and a later one waits for the job to
 *  end (the first call's answer) or for the claim to be released by a call that failed. */
export async function completeLease(lease: OwnedLease, input: { upload_id: string; metrics: Record<string, number> }): Promise<{ checkpoint_step: number }> {
  const env = getEnv();
  const giveUpAt = Date.now() + env.ANNEAL_REMOTE_GUARD_RAILS_MS + 2 * env.ANNEAL_JOB_LEASE_MS;
  for (let round = 0; ; round++) {
    if (round > 0) {
      const job = await getDb().trainingJob.findUniqueOrThrow({ where: { id: lease.jobId }, select: { status: true, leaseOwner: true, checkpointStep: true } });
      if (job.status === "succeeded" && job.checkpointStep !== null) return { checkpoint_step: job.checkpointStep };
      if (job.status !== "running" || job.leaseOwner !== lease.owner || Date.now() >= giveUpAt) throw leaseLost();
    }
    if (claim(lease, input.upload_id, round > 0)) return completeClaimed(lease, input);
    await new Promise((resolve) => setTimeout(resolve, EARLIER_CALL_POLL_MS));
  }
}

const EARLIER_CALL_POLL_MS = 250;

/** claimUpload; when `again`, a missing upload is false: the other call used it as it ended the job (the next round sees that). */
function claim(lease: OwnedLease, uploadId: string, again: boolean): boolean {
  try {
    return claimUpload(lease, uploadId);
  } catch (error) {
    if (again && error instanceof AppError && error.code === "not_found") return false;
    throw error;
  }
}

async function completeClaimed(lease: OwnedLease, input: { upload_id: string; metrics: Record<string, number> }): Promise<{ checkpoint_step: number }> {
  try {
    const done = await completeWithCheckpoint(lease, assembleUpload(lease, input.upload_id, "checkpoint"), input.metrics);
    removeUpload(lease, input.upload_id);
    return done;
  } catch (error) {
    releaseUpload(lease, input.upload_id);
    throw error;
  }
}

/** Ends the job with `whole` (a file: the adapter, or a full-weights GGUF) as its checkpoint. */
export async function completeWithCheckpoint(lease: OwnedLease, whole: string, metrics: Record<string, number>) {
  const file = checkpointFileFor(lease.model.id, lease.jobId, lease.attempt);
  const lora = storedLoraSettings(lease.model.lora) !== null;
  if (lora) await writeImportedAdapter(lease.model, fs.readFileSync(whole), file);
  else await placeFullCheckpoint(lease, whole, file);
  // The previous checkpoint's optimizer state (Anneal's trainer's) no longer matches the newest weights.
  const previous = await getDb().checkpoint.findFirst({ where: { modelId: lease.model.id }, orderBy: { step: "desc" }, select: { file: true } });
  const job = {
    jobId: lease.jobId, modelId: lease.model.id, checkpointFile: file, checkpointFormat: lora ? ("lora" as const) : ("full" as const),
    task: { startOptimizer: previous ? optimizerStatePath(absoluteCheckpointPath(previous.file)) : null },
  };
  // An SFT job's guard rails, measured here (the worker reads no replies): final when the job ends.
  const checked = await remoteSftChecks(lease, absoluteCheckpointPath(file));
  // A cancel that came meanwhile ends the job here: the worker, waiting on this call, sends no heartbeat to hear it.
  const { cancelRequested } = await getDb().trainingJob.findUniqueOrThrow({ where: { id: lease.jobId }, select: { cancelRequested: true } });
  if (cancelRequested) {
    removeCheckpointFiles(file);
    await failLease(lease, { message: CANCELLED_MESSAGE, cancelled: true, release: false });
    throw leaseLost();
  }
  const { stepsDone } = await getDb().trainingJob.findUniqueOrThrow({ where: { id: lease.jobId }, select: { stepsDone: true } });
  if (!(await completeJob(job, lease.owner, { ...metrics, ...checked?.metrics }, stepsDone, checked?.report ?? null))) {
    removeCheckpointFiles(file);
    throw leaseLost();
  }
  removeJobStates(lease.jobId);
  const { checkpointStep } = await getDb().trainingJob.findUniqueOrThrow({ where: { id: lease.jobId }, select: { checkpointStep: true } });
  return { checkpoint_step: checkpointStep! };
}

/** A full-weights job's GGUF: it must be a model of the base's architecture and size. */
async function placeFullCheckpoint(lease: OwnedLease, whole: string, file: string): Promise<void> {
  const base = await trainableBase(lease.model.baseModel);
  let summary;
  try {
    summary = ggufSummary(whole);
  } catch {
    throw badRequest("The checkpoint upload is not a GGUF: a full-weights job's checkpoint is one.");
  }
  const expected = ggufSummary(base.gguf);
  if (summary.architecture !== expected.architecture || summary.parameters !== expected.parameters) {
    throw badRequest(`The checkpoint is a ${summary.architecture} of ${summary.parameters} parameters; the base '${base.name}' is a ${expected.architecture} of ${expected.parameters}.`);
  }
  fs.mkdirSync(path.dirname(absoluteCheckpointPath(file)), { recursive: true });
  fs.renameSync(whole, absoluteCheckpointPath(file));
}
