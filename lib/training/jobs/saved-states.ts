// The runner's side of resuming: a running job's saved training states live in
// $ANNEAL_DATA_DIR/training-state/<job id>/a<attempt>-s<step>.state (written by its training
// thread, train/state-saver.ts). A state counts once it is committed: recorded on the job
// (resumeStep, resumeState) while its worker owns it, after the gradient_step events up to its step
// (the job's writes go in order), so a retry never resumes past the event feed. Committing deletes
// the state it replaces; a job's states go when it ends, whoever ends it.
import fs from "node:fs";
import path from "node:path";
import { dataPaths } from "@/lib/config/paths";
import { getDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import { lockOwnedJob, type LeaseState } from "./queue";
import type { SavedState } from "./train/state-saver";

export const jobStateDir = (jobId: string) => path.join(dataPaths().trainingState, jobId);

/** The format of the states Anneal's trainer saves and reads (a remote worker saves its own). */
export const NODE_STATE_FORMAT = "anneal-node-1";

/** The state a retried attempt resumes from (absolute), or null when there is none on disk or it is
 *  in a format Anneal's trainer does not read (a remote worker's). */
export function resumeStateFile(job: { id: string; resumeState: string | null; resumeFormat: string | null }): string | null {
  if (!job.resumeState || (job.resumeFormat ?? NODE_STATE_FORMAT) !== NODE_STATE_FORMAT) return null;
  const file = path.resolve(dataPaths().trainingState, job.resumeState);
  if (fs.existsSync(file)) return file;
  log.warn("training: the job's saved state is missing from the data directory; the attempt starts over", { jobId: job.id, file });
  return null;
}

/** Records a saved state (a file under the job's state directory: its thread's, or one a remote
 *  worker uploaded in its own `format`) as the job's resume point, if this worker still owns the
 *  job; the state it replaces is deleted. */
export async function commitSavedState(jobId: string, workerId: string, state: SavedState, format = NODE_STATE_FORMAT): Promise<LeaseState> {
  const file = path.relative(dataPaths().trainingState, state.file);
  const replaced = await getDb().$transaction(async (tx) => {
    if (!(await lockOwnedJob(tx, jobId, workerId))) return undefined;
    const { resumeState } = await tx.trainingJob.findUniqueOrThrow({ where: { id: jobId }, select: { resumeState: true } });
    await tx.trainingJob.update({ where: { id: jobId }, data: { resumeStep: state.step, resumeState: file, resumeFormat: format } });
    return resumeState;
  });
  if (replaced === undefined) return { owned: false, cancelRequested: false };
  if (replaced && replaced !== file) fs.rmSync(path.resolve(dataPaths().trainingState, replaced), { force: true });
  log.debug("training: state saved", { jobId, step: state.step, bytes: state.bytes, ms: Math.round(state.ms) });
  return { owned: true, cancelRequested: false };
}

/** Deletes every saved state of a job (it ended). */
export function removeJobStates(jobId: string): void {
  fs.rmSync(jobStateDir(jobId), { recursive: true, force: true });
}

/** Deletes the saved states of jobs that are no longer queued or running: those ended where no
 *  runner saw them end (cancelled while queued, failed for lack of attempts, their model deleted). */
export async function removeStatesOfEndedJobs(): Promise<void> {
  const root = dataPaths().trainingState;
  const ids = fs.existsSync(root) ? fs.readdirSync(root).filter((name) => /^[0-9a-f-]{36}$/.test(name)) : [];
  if (ids.length === 0) return;
  const live = await getDb().trainingJob.findMany({ where: { id: { in: ids }, status: { in: ["queued", "running"] } }, select: { id: true } });
  const keep = new Set(live.map((j) => j.id));
  for (const id of ids) if (!keep.has(id)) removeJobStates(id);
}
