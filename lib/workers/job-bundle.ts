// Job bundles (docs/workers.md "Job bundles"): a job leased to a GPU machine that cannot reach Anneal.
// POST …/bundle leases the job as a worker's lease would (the queue's rules, for this job only, for
// `lease_hours`) and answers job.tar: job.json (`{version, lease, inputs}`, the inputs inline) and
// start-adapter.zip when the model has an adapter to continue. POST …/bundle-result takes the
// result.tar `anneal-worker run-bundle` writes (result.json: `{version, token, job_id, events,
// metrics}`; adapter.zip) and does what events and complete do. The lease token fences it: a bundle
// whose job another worker took is a 409.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Principal } from "@/lib/auth/principal";
import { attachment } from "@/lib/contract/attachment";
import { conflict, invalid } from "@/lib/contract/errors";
import { MiB } from "@/lib/contract/body-limits";
import { getEnv } from "@/lib/config/env";
import { baseModelCatalogue, findBaseModel } from "@/lib/inference/base-models";
import { findJobForCaller } from "@/lib/training/jobs/jobs";
import { claimJob, failAbandonedJobs } from "@/lib/training/jobs/queue";
import { jobStateDir, removeJobStates } from "@/lib/training/jobs/saved-states";
import { leaseInputs, startCheckpoint } from "./lease-downloads";
import { startRemoteRun } from "./lease-job";
import { appendLeaseEvents } from "./lease-progress";
import { completeWithCheckpoint } from "./lease-results";
import { leaseOwnerOf } from "./lease-token";
import { leaseLost, leaseOfOwner } from "./owned-lease";
import { MalformedTarError, readTar, writeTar } from "./tar";

export const BUNDLE_VERSION = 1;
/** The bundle's start files by name (a bundle never resumes: it has no state link). */
const BUNDLE_FILES = { adapter: "start-adapter.zip", gguf: "start.gguf", state: "" } as const;
const BUNDLE_TOKEN_PREFIX = "bundle.";

export async function createJobBundle(principal: Principal, jobId: string, leaseHours: number): Promise<Response> {
  await findJobForCaller(principal, jobId); // a member's or admin's (an annotator is a 403)
  const env = getEnv();
  for (const id of await failAbandonedJobs(env.ANNEAL_JOB_MAX_ATTEMPTS)) removeJobStates(id);
  const token = `${BUNDLE_TOKEN_PREFIX}${randomBytes(16).toString("hex")}`;
  const leaseMs = leaseHours * 3_600_000;
  const claimed = await claimJob(leaseOwnerOf(token), leaseMs, env.ANNEAL_JOB_MAX_ATTEMPTS, { jobId });
  if (!claimed) throw conflict(`Training job '${jobId}' cannot be leased now: it is not queued (or held by a live worker), or an earlier job of its model is unfinished.`);
  const base = findBaseModel((await baseModelCatalogue()).models, claimed.baseModel);
  if (!base) throw conflict(`The job's base '${claimed.baseModel}' is no longer configured.`);
  const lease = await startRemoteRun(claimed, token, "bundle", base, leaseMs);
  const owned = await leaseOfOwner(leaseOwnerOf(token));
  // A bundle has no later calls: it carries its start file, and starts over rather than resuming.
  const inputs = { ...(await leaseInputs(owned, BUNDLE_FILES)), resume: null };
  const files = [{ name: "job.json", data: Buffer.from(JSON.stringify({ version: BUNDLE_VERSION, lease, inputs })) }];
  if (inputs.start?.adapter) files.push({ name: BUNDLE_FILES.adapter, data: await bytesOf(startCheckpoint(owned, "peft")) });
  if (inputs.start?.gguf) files.push({ name: BUNDLE_FILES.gguf, data: await bytesOf(startCheckpoint(owned, "gguf")) });
  const tar = writeTar(files);
  return new Response(tar, {
    headers: { "content-type": "application/x-tar", "content-length": String(tar.length), "content-disposition": attachment(`job-${jobId}.tar`) },
  });
}

const bytesOf = async (response: Promise<Response>) => Buffer.from(await (await response).arrayBuffer());

interface BundleResult {
  token: string;
  job_id: string;
  events: { type: "gradient_step"; data: { step: number } & Record<string, number> }[];
  metrics: Record<string, number>;
}

function readResult(body: Uint8Array): { result: BundleResult; adapter: Uint8Array } {
  let files: Map<string, Uint8Array>;
  try {
    files = readTar(body, 64 * MiB);
  } catch (error) {
    if (error instanceof MalformedTarError) throw invalid(["body"], `Not a result.tar: ${error.message}.`, "bundle_invalid");
    throw error;
  }
  const json = files.get("result.json");
  const adapter = files.get("adapter.zip");
  if (!json || !adapter) throw invalid(["body"], "A result.tar holds result.json and adapter.zip (anneal-worker run-bundle writes it).", "bundle_invalid");
  let result: BundleResult;
  try {
    result = JSON.parse(Buffer.from(json).toString("utf8")) as BundleResult;
  } catch {
    throw invalid(["body"], "result.json is not JSON.", "bundle_invalid");
  }
  const valid = typeof result?.token === "string" && Array.isArray(result.events) && typeof result.metrics === "object" && result.metrics !== null &&
    result.events.every((e) => e?.type === "gradient_step" && Number.isInteger(e.data?.step) && Object.values(e.data).every((v) => typeof v === "number"));
  if (!valid) throw invalid(["body"], "result.json needs token, events (gradient_step, numeric data with step) and metrics.", "bundle_invalid");
  return { result, adapter };
}

export async function importBundleResult(principal: Principal, jobId: string, body: Uint8Array) {
  await findJobForCaller(principal, jobId);
  const { result, adapter } = readResult(body);
  if (result.job_id !== jobId || !result.token.startsWith(BUNDLE_TOKEN_PREFIX)) throw leaseLost();
  const lease = await leaseOfOwner(leaseOwnerOf(result.token));
  if (lease.jobId !== jobId) throw leaseLost();
  await appendLeaseEvents(lease, result.events);
  const file = path.join(jobStateDir(jobId), "bundle-adapter.zip");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, adapter);
  return completeWithCheckpoint(lease, file, result.metrics);
}
