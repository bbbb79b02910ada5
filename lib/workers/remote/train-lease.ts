// One leased job on this worker: its inputs (token ids), what it starts from and the state it resumes
// from downloaded into the worker's own data directory, then trained on the worker's training thread
// by the runner's own pieces (trainOnThread, ThreadReports, OwnedJob, the heartbeat) with writes that
// go over HTTP (lease-writes.ts). The job's files are removed when it ends: Anneal keeps what counts.
import fs from "node:fs";
import path from "node:path";
import type { GgufBaseModel } from "@/lib/inference/base-models";
import { log } from "@/lib/log";
import { startLeaseHeartbeat } from "@/lib/training/jobs/lease-heartbeat";
import type { SaveEvery } from "@/lib/training/jobs/load-job-task";
import { OwnedJob } from "@/lib/training/jobs/owned-job";
import { ThreadReports } from "@/lib/training/jobs/thread-reports";
import { tokenTrainingTask, type TokenTrainingTask } from "@/lib/training/jobs/train/training-task";
import { slotThread, trainOnThread, type ThreadSlot } from "@/lib/training/jobs/training-thread";
import type { VocabularyThread } from "@/lib/training/jobs/vocabulary/vocabulary-host";
import { jobInputsSchema } from "@/lib/training/jobs/job-inputs-schema";
import { localBase } from "./worker-capabilities";
import { endLease, leaseJobWrites, NODE_STATE_FORMAT, type Lease } from "./lease-writes";
import { Conflict, type WorkerClient } from "./worker-client";

/** A lease as POST /v1/workers/lease grants it. */
export interface GrantedLease extends Lease {
  base: { name: string; hf_name: string | null };
}

export interface WorkerContext {
  client: WorkerClient;
  bases: readonly GgufBaseModel[];
  /** The worker's own data directory (ANNEAL_DATA_DIR): downloads, checkpoints and states. */
  dataDir: string;
  slot: ThreadSlot;
  vocabularies: VocabularyThread;
  saveEvery: SaveEvery;
  stallMs: number;
  /** The worker is shutting down: a job stopped at its request goes back to the queue. */
  stopping(): boolean;
}

export async function trainLease(ctx: WorkerContext, lease: GrantedLease): Promise<void> {
  const dir = path.join(ctx.dataDir, "remote-jobs", lease.job_id);
  fs.mkdirSync(dir, { recursive: true });
  try {
    const task = await prepareTask(ctx, lease, dir).catch(async (error: Error) => {
      if (error instanceof Conflict) return null; // lost before it started
      log.error("remote worker: the job cannot start here", { jobId: lease.job_id, error });
      await endLease(ctx.client, lease, { message: `The remote worker could not start the job: ${error.message}` });
      return null;
    });
    if (task) await train(ctx, lease, task);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function prepareTask(ctx: WorkerContext, lease: GrantedLease, dir: string): Promise<TokenTrainingTask> {
  const route = `/v1/workers/leases/${lease.token}`;
  const deadline = Date.now() + lease.lease_ms;
  const inputs = jobInputsSchema.parse(await ctx.client.json("GET", `${route}/inputs`, { deadline }));
  const download = async (url: string, name: string) => {
    const file = path.join(dir, name);
    await ctx.client.download(url, file, deadline);
    return file;
  };
  const base = localBase(ctx.bases, lease.base.hf_name, lease.base.name);
  // Named after the checkpoint they are (the step before the job's), the same on every worker: a saved
  // state names the file it was trained from, so another worker resumes it only from the same start.
  const from = `step${inputs.step - 1}`;
  const startGguf = inputs.start?.gguf ? await download(inputs.start.gguf, `start-${from}.gguf`) : base.gguf;
  const startAdapter = inputs.start?.adapter ? await download(withQuery(inputs.start.adapter, "format", "gguf-lora"), `start-adapter-${from}.gguf`) : null;
  const resume = inputs.resume?.format === NODE_STATE_FORMAT ? await download(inputs.resume.url, "resume.state") : null;
  const { steps, ms } = ctx.saveEvery;
  return tokenTrainingTask(inputs, {
    startGguf,
    startAdapter,
    startOptimizer: null, // the checkpoint's AdamW moments stay on the server: a continued model starts fresh ones
    outputGguf: path.join(dir, "checkpoint.gguf"),
    outputOptimizer: path.join(dir, "checkpoint.optimizer"),
    modelName: `job ${lease.job_id}`,
    save: steps > 0 || ms > 0 ? { dir: path.join(dir, "states"), attempt: lease.attempt, everySteps: steps, everyMs: ms } : null,
    resume,
    stopRequest: ctx.slot.stopRequest,
  });
}

async function train(ctx: WorkerContext, lease: GrantedLease, task: TokenTrainingTask): Promise<void> {
  const thread = slotThread(ctx.slot);
  const job = new OwnedJob(lease.job_id, leaseJobWrites(ctx.client, lease, task.outputGguf), () => void thread.terminate());
  // Steps up to the resumed state's are in the feed; Anneal skips any other it already has.
  const reports = new ThreadReports(job, task.inputs.resume?.step ?? 0, lease.attempt);
  const stopHeartbeat = startLeaseHeartbeat(job, { timing: { heartbeatMs: lease.heartbeat_ms, stallMs: ctx.stallMs }, lastHeard: () => reports.lastHeard });
  await trainOnThread(thread, task, reports, ctx.vocabularies);
  stopHeartbeat();
  await job.settled();
  if (job.outcome !== "running") return;
  // Stopped for the shutdown (its state committed): back to the queue. Otherwise the thread died.
  if (ctx.stopping()) return endLease(ctx.client, lease, { message: "The worker shut down.", release: true });
  job.fail("The training thread stopped without a result (out of memory?).");
  await job.settled();
}

/** A route Anneal gave, with one query parameter set (the start adapter as GGUF LoRA, which Anneal's trainer reads). */
function withQuery(route: string, key: string, value: string): string {
  const url = new URL(route, "http://anneal");
  url.searchParams.set(key, value);
  return `${url.pathname}${url.search}`;
}
