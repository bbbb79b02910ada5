// What a leased job's worker downloads (docs/workers.md "Inputs"): the job as token ids (jobInputs)
// with where its start and resume files are, the model's newest adapter (PEFT zip or GGUF LoRA) or
// full checkpoint, and the state an earlier attempt committed. Reading the inputs is the attempt's
// start: the job's training_started (once per job) carries their step count.
import fs from "node:fs";
import path from "node:path";
import { attachment, streamFile } from "@/lib/contract/attachment";
import { conflict, notFound } from "@/lib/contract/errors";
import { dataPaths } from "@/lib/config/paths";
import { getDb } from "@/lib/db/client";
import { appendOwnedEvents, endOwnedJob } from "@/lib/training/jobs/queue";
import { NODE_STATE_FORMAT, removeJobStates } from "@/lib/training/jobs/saved-states";
import { checkpointFileResponse } from "@/lib/training/models/checkpoint-download";
import { storedLoraSettings } from "@/lib/engine/model/lora-settings";
import { jobInputs } from "./job-inputs";
import type { JobInputs } from "@/lib/training/jobs/job-inputs-schema";
import { leaseLost, type OwnedLease } from "./owned-lease";

/** Where the lease's files are: its routes for a worker, the bundle's own files for a job bundle. */
export interface StartLinks {
  adapter: string;
  gguf: string;
  state: string;
}

export const leaseLinks = (token: string): StartLinks => ({
  adapter: `/v1/workers/leases/${token}/start-adapter?format=peft`,
  gguf: `/v1/workers/leases/${token}/start-gguf`,
  state: `/v1/workers/leases/${token}/state`,
});

const newestCheckpoint = (modelId: string) => getDb().checkpoint.findFirst({ where: { modelId }, orderBy: { step: "desc" }, select: { step: true } });

export async function leaseInputs(lease: OwnedLease, links: StartLinks): Promise<JobInputs> {
  const inputs = await jobInputs(lease.jobId).catch(async (error: unknown) => {
    // As the embedded runner does with a job it cannot load (its data file deleted, its base gone):
    // the job fails saying why, rather than going from worker to worker.
    const message = error instanceof Error ? error.message : String(error);
    if (await endOwnedJob(lease.jobId, lease.owner, "failed", message)) removeJobStates(lease.jobId);
    throw conflict(`The job cannot be trained, so it failed: ${message}`);
  });
  const newest = await newestCheckpoint(lease.model.id);
  const lora = storedLoraSettings(lease.model.lora) !== null;
  const start = lora
    ? { adapter: newest ? links.adapter : null }
    : { gguf: newest ? links.gguf : null };
  const resume = lease.resumeState && lease.resumeStep && fs.existsSync(stateFile(lease.resumeState))
    ? { step: lease.resumeStep, format: lease.resumeFormat ?? NODE_STATE_FORMAT, url: links.state }
    : null;
  const steps = inputs.sft?.steps.length ?? inputs.rl?.steps.length ?? 0;
  // A retried job trains the same data again: its training_started stands (clients have seen it).
  const state = lease.numSequences === null
    ? await appendOwnedEvents(lease.jobId, lease.owner, [{ type: "training_started", data: { num_sequences: steps } }], { numSequences: steps })
    : await appendOwnedEvents(lease.jobId, lease.owner, []);
  if (!state.owned) throw leaseLost();
  return { ...inputs, start, resume };
}

/** The model's newest checkpoint in the format asked (a LoRA model's adapter, or full weights' GGUF). */
export async function startCheckpoint(lease: OwnedLease, format: "peft" | "gguf-lora" | "gguf"): Promise<Response> {
  const newest = await newestCheckpoint(lease.model.id);
  if (!newest) throw notFound("The job starts from the base: there is no checkpoint to download (inputs' start is null).");
  return checkpointFileResponse(lease.model, newest.step, format);
}

const stateFile = (relative: string) => path.resolve(dataPaths().trainingState, relative);

/** The state an earlier attempt committed, as it was uploaded. */
export async function resumeState(lease: OwnedLease): Promise<Response> {
  const file = lease.resumeState && stateFile(lease.resumeState);
  const response = file && (await streamFile(file, {
    "content-type": "application/octet-stream",
    "content-disposition": attachment(`state-s${lease.resumeStep}.${lease.resumeFormat ?? NODE_STATE_FORMAT}`),
    "x-anneal-state-format": lease.resumeFormat ?? NODE_STATE_FORMAT,
    "x-anneal-state-step": String(lease.resumeStep),
  }));
  if (!response) throw notFound("The job has no saved state to resume from (inputs' resume is null).");
  return response;
}
