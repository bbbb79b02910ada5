import { defineOperation } from "@/lib/contract/operation";
import { LARGE_BODY_LIMIT } from "@/lib/contract/body-limits";
import { jobParams } from "@/lib/training/jobs/schemas";
import { jobInputsSchema } from "@/lib/training/jobs/job-inputs-schema";
import {
  bundleBody, bundleResultBody, chunkBody, commitStateAnswerSchema, commitStateBody, completeAnswerSchema, completeBody, createdWorkerKeySchema, createUploadBody,
  createWorkerKeyBody, eventsAnswerSchema, eventsBody, failAnswerSchema, failBody, leaseAnswerSchema, leaseBody, leaseParams,
  leaseStatusSchema, probeAnswerSchema, probeBody, startAdapterQuery, uploadCreatedSchema, uploadParams, uploadReceivedSchema,
  UPLOAD_CHUNK_BYTES, workerKeyListSchema, workerKeyParams, workerKeySchema,
} from "./schemas";

// Worker keys (instance admins) and the remote-worker protocol (docs/workers.md): every /v1/workers
// route takes a worker key and nothing else; the lease routes name the lease's token.

const TAG = "Workers";

export const createWorkerKeyOp = defineOperation({
  id: "createWorkerKey", method: "POST", path: "/v1/preview/worker-keys", tag: TAG, auth: "bearer", instanceAdmin: true, status: 201,
  summary: "Create a worker key (instance-wide or for one team's jobs); its secret is shown once (instance admins)",
  body: createWorkerKeyBody, response: createdWorkerKeySchema,
});

export const listWorkerKeysOp = defineOperation({
  id: "listWorkerKeys", method: "GET", path: "/v1/preview/worker-keys", tag: TAG, auth: "bearer", instanceAdmin: true,
  summary: "Worker keys, each with its workers seen in the last 5 minutes (instance admins)",
  response: workerKeyListSchema,
});

export const revokeWorkerKeyOp = defineOperation({
  id: "revokeWorkerKey", method: "DELETE", path: "/v1/preview/worker-keys/{worker_key_id}", tag: TAG, auth: "bearer", instanceAdmin: true,
  summary: "Revoke a worker key: its calls are refused and its leases expire now, for other workers to take over (instance admins)",
  params: workerKeyParams, response: workerKeySchema,
});

export const leaseOp = defineOperation({
  id: "leaseWorkerJob", method: "POST", path: "/v1/workers/lease", tag: TAG, auth: "worker",
  summary: "Check in and lease the next job this worker can train (or be asked to probe a base first)",
  body: leaseBody, response: leaseAnswerSchema,
});

export const probeOp = defineOperation({
  id: "probeWorkerBase", method: "POST", path: "/v1/workers/probe", tag: TAG, auth: "worker",
  summary: "Report the worker's logprobs of a base's probe ids; 409 when they are not the base's",
  body: probeBody, response: probeAnswerSchema,
});

export const leaseInputsOp = defineOperation({
  id: "getLeaseInputs", method: "GET", path: "/v1/workers/leases/{token}/inputs", tag: TAG, auth: "worker",
  summary: "The leased job as token ids, with where its start and resume files are",
  params: leaseParams, response: jobInputsSchema,
});

export const startAdapterOp = defineOperation({
  id: "getLeaseStartAdapter", method: "GET", path: "/v1/workers/leases/{token}/start-adapter", tag: TAG, auth: "worker",
  summary: "The model's newest adapter, to continue: a PEFT zip or a GGUF LoRA",
  params: leaseParams, query: startAdapterQuery,
});

export const startGgufOp = defineOperation({
  id: "getLeaseStartGguf", method: "GET", path: "/v1/workers/leases/{token}/start-gguf", tag: TAG, auth: "worker",
  summary: "A full-weights model's newest checkpoint, as a GGUF",
  params: leaseParams,
});

export const getLeaseStateOp = defineOperation({
  id: "getLeaseState", method: "GET", path: "/v1/workers/leases/{token}/state", tag: TAG, auth: "worker",
  summary: "The state an earlier attempt committed, as uploaded (its format in X-Anneal-State-Format)",
  params: leaseParams,
});

export const commitLeaseStateOp = defineOperation({
  id: "commitLeaseState", method: "POST", path: "/v1/workers/leases/{token}/state", tag: TAG, auth: "worker",
  summary: "Commit an uploaded state as the job's resume point (after the events up to its step)",
  params: leaseParams, body: commitStateBody, response: commitStateAnswerSchema,
});

export const heartbeatOp = defineOperation({
  id: "leaseHeartbeat", method: "POST", path: "/v1/workers/leases/{token}/heartbeat", tag: TAG, auth: "worker",
  summary: "Extend the lease; says whether a cancel was requested",
  params: leaseParams, response: leaseStatusSchema,
});

export const leaseEventsOp = defineOperation({
  id: "appendLeaseEvents", method: "POST", path: "/v1/workers/leases/{token}/events", tag: TAG, auth: "worker",
  summary: "Append gradient_step events to the job's feed (steps already in it are skipped)",
  params: leaseParams, body: eventsBody, response: eventsAnswerSchema, bodyLimit: 16 * 1024 * 1024,
});

export const createUploadOp = defineOperation({
  id: "createLeaseUpload", method: "POST", path: "/v1/workers/leases/{token}/uploads", tag: TAG, auth: "worker", status: 201,
  summary: "Declare an upload (a checkpoint or a state): its size and SHA-256",
  params: leaseParams, body: createUploadBody, response: uploadCreatedSchema,
});

export const putChunkOp = defineOperation({
  id: "putLeaseUploadChunk", method: "PUT", path: "/v1/workers/leases/{token}/uploads/{upload_id}", tag: TAG, auth: "worker",
  summary: "Send one chunk of an upload (Content-Range: bytes a-b/N; at most 16 MiB), in any order, again after a failure",
  params: uploadParams, bodyKind: "binary", binaryTypes: ["application/octet-stream"], bodyLimit: UPLOAD_CHUNK_BYTES,
  body: chunkBody, response: uploadReceivedSchema,
});

export const getUploadOp = defineOperation({
  id: "getLeaseUpload", method: "GET", path: "/v1/workers/leases/{token}/uploads/{upload_id}", tag: TAG, auth: "worker",
  summary: "How much of an upload is held: its contiguous prefix, to resume from",
  params: uploadParams, response: uploadReceivedSchema,
});

export const completeLeaseOp = defineOperation({
  id: "completeLease", method: "POST", path: "/v1/workers/leases/{token}/complete", tag: TAG, auth: "worker",
  summary: "End the job with its uploaded checkpoint (a PEFT zip or GGUF LoRA; a GGUF for full weights), which serves at once",
  params: leaseParams, body: completeBody, response: completeAnswerSchema,
});

export const failLeaseOp = defineOperation({
  id: "failLease", method: "POST", path: "/v1/workers/leases/{token}/fail", tag: TAG, auth: "worker",
  summary: "End the job as failed or cancelled, or release it to the queue without counting the attempt",
  params: leaseParams, body: failBody, response: failAnswerSchema,
});

export const createJobBundleOp = defineOperation({
  id: "createJobBundle", method: "POST", path: "/v1/preview/training-jobs/{training_job_id}/bundle", tag: TAG, auth: "bearer",
  summary: "Lease a queued job to a job bundle for a machine that cannot reach Anneal: job.tar (job.json with the lease and the inputs; start-adapter.zip)",
  params: jobParams, body: bundleBody,
});

export const importBundleResultOp = defineOperation({
  id: "importJobBundleResult", method: "POST", path: "/v1/preview/training-jobs/{training_job_id}/bundle-result", tag: TAG, auth: "bearer",
  bodyKind: "binary", binaryTypes: ["application/x-tar", "application/octet-stream"], bodyLimit: LARGE_BODY_LIMIT,
  summary: "Import a bundle's result.tar (anneal-worker run-bundle): its events, then its adapter as the job's checkpoint, as complete does",
  params: jobParams, body: bundleResultBody, response: completeAnswerSchema,
});
