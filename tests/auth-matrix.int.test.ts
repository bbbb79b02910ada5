import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { ALL_OPERATIONS, PUBLIC_ROUTES } from "@/lib/api/operations";
import { getDb } from "@/lib/db/client";
import type { Operation } from "@/lib/contract/operation";
import { api, ROUTE_FILES, routeMethods } from "./http";
import { createTestTeam, createTestUser, createTestWorkerKey, type TestUser } from "./factories";

// Walks every registered route: no credentials → 401, wrong scheme → 401, another team's (or
// user's) resource → 404, a role without permission → 403. A new route without a case here fails.

type Team = Awaited<ReturnType<typeof createTestTeam>>;
interface World {
  team: Team;
  other: Team;
  otherKeyId: string;
  admin: TestUser;
  /** A model in `team` and one in `other`. */
  model: string;
  otherModel: string;
  /** A file (row only) in `team` and one in `other`. */
  file: string;
  otherFile: string;
  /** A (cancelled) training job of `model` and one of `otherModel`. */
  job: string;
  otherJob: string;
  /** A (cancelled) RL run of `model` and one of `otherModel`. */
  run: string;
  otherRun: string;
  /** A recorded call in `team` and one in `other`. */
  call: string;
  otherCall: string;
  /** A feedback row written by `team`'s admin in `team/matrix`. */
  feedback: string;
  /** An annotation queue in `team/matrix` assigned to `team`'s annotator, with `call` as its item; the same in `other`. */
  queue: { id: string; item: string };
  otherQueue: { id: string; item: string };
  /** An instance-wide worker key's secret. */
  workerKey: string;
}

interface Request {
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

interface Case {
  /** A request the caller is entitled to make (its shape used for the 401 checks). */
  valid: Request;
  /** The same operation aimed at a resource of another team or user; null: the route has none. */
  foreign: Request | null;
  /** Who lacks the permission, and the request; null: every authenticated caller may. */
  forbidden: ({ as: "member" | "annotator" | "non-admin" } & Request) | null;
}

const CASES: Record<string, (w: World) => Case> = {
  getMe: () => ({ valid: { path: "/v1/me" }, foreign: null, forbidden: null }),
  changeMyPassword: () => ({
    valid: { path: "/v1/me/password", body: { current_password: "x", new_password: "long-enough" } },
    foreign: null,
    forbidden: null,
  }),
  getWorkspace: () => ({ valid: { path: "/v1/me/workspace" }, foreign: null, forbidden: null }),
  setWorkspace: (w) => ({
    valid: { path: "/v1/me/workspace", body: { team: w.team.name } },
    foreign: { path: "/v1/me/workspace", body: { team: w.other.name } },
    forbidden: null, // annotators select the teams they annotate in
  }),
  listUsers: () => ({ valid: { path: "/v1/users" }, foreign: null, forbidden: { as: "non-admin", path: "/v1/users" } }),
  createUser: () => {
    const body = { username: "never-created", email: "never@example.test" };
    return { valid: { path: "/v1/users", body }, foreign: null, forbidden: { as: "non-admin", path: "/v1/users", body } };
  },
  listTeams: () => ({ valid: { path: "/v1/teams" }, foreign: null, forbidden: null }),
  createTeam: () => {
    const body = { name: "never-created-team" };
    return { valid: { path: "/v1/teams", body }, foreign: null, forbidden: { as: "non-admin", path: "/v1/teams", body } };
  },
  listProjects: (w) => ({
    valid: { path: `/v1/teams/${w.team.name}/projects` },
    foreign: { path: `/v1/teams/${w.other.name}/projects` },
    forbidden: null, // annotators see project names (they annotate in them)
  }),
  listMembers: (w) => ({
    valid: { path: `/v1/teams/${w.team.name}/members` },
    foreign: { path: `/v1/teams/${w.other.name}/members` },
    forbidden: { as: "annotator", path: `/v1/teams/${w.team.name}/members` },
  }),
  addMember: (w) => {
    const body = { username: w.other.member.username, role: "member" };
    return {
      valid: { path: `/v1/teams/${w.team.name}/members`, body },
      foreign: { path: `/v1/teams/${w.other.name}/members`, body: { username: w.team.member.username } },
      forbidden: { as: "member", path: `/v1/teams/${w.team.name}/members`, body },
    };
  },
  updateMember: (w) => ({
    valid: { path: `/v1/teams/${w.team.name}/members/${w.team.annotator.username}`, body: { role: "annotator" } },
    foreign: { path: `/v1/teams/${w.other.name}/members/${w.other.annotator.username}`, body: { role: "admin" } },
    forbidden: { as: "member", path: `/v1/teams/${w.team.name}/members/${w.team.annotator.username}`, body: { role: "admin" } },
  }),
  removeMember: (w) => ({
    valid: { path: `/v1/teams/${w.team.name}/members/${w.team.annotator.username}` },
    foreign: { path: `/v1/teams/${w.other.name}/members/${w.other.annotator.username}` },
    forbidden: { as: "member", path: `/v1/teams/${w.team.name}/members/${w.team.annotator.username}` },
  }),
  listApiKeys: () => ({ valid: { path: "/v1/api-keys" }, foreign: null, forbidden: null }),
  createApiKey: (w) => ({
    valid: { path: "/v1/api-keys", body: { name: "k" } },
    foreign: { path: "/v1/api-keys", body: { name: "k", team: w.other.name } },
    forbidden: null,
  }),
  createChatCompletion: (w) => {
    const messages = [{ role: "user", content: "hi" }];
    return {
      valid: { path: "/v1/chat/completions", body: { messages } },
      foreign: { path: "/v1/chat/completions", body: { messages, model: `${w.other.name}/default/some-model` } },
      forbidden: { as: "annotator", path: "/v1/chat/completions", body: { messages }, headers: { "svc-project": `${w.team.name}/evals` } },
    };
  },
  listModels: () => ({ valid: { path: "/v1/models" }, foreign: null, forbidden: null }),
  // Base models are the instance's: only its admins manage them.
  listBaseModels: () => ({ valid: { path: "/v1/preview/base-models" }, foreign: null, forbidden: { as: "non-admin", path: "/v1/preview/base-models" } }),
  listBaseModelCandidates: () => ({
    valid: { path: "/v1/preview/base-models/candidates" }, foreign: null, forbidden: { as: "non-admin", path: "/v1/preview/base-models/candidates" },
  }),
  createBaseModel: () => {
    const body = { name: "never/added", file: "missing.gguf" };
    return { valid: { path: "/v1/preview/base-models", body }, foreign: null, forbidden: { as: "non-admin", path: "/v1/preview/base-models", body } };
  },
  deleteBaseModel: () => {
    const path = `/v1/preview/base-models/${randomUUID()}`;
    return { valid: { path }, foreign: null, forbidden: { as: "non-admin", path } };
  },
  getUsage: (w) => ({
    valid: { path: "/v1/usage" },
    foreign: { path: `/v1/usage?team=${w.other.name}` },
    forbidden: { as: "annotator", path: `/v1/usage?team=${w.team.name}` },
  }),
  createModel: (w) => {
    const body = { project: "p", name: "m2", base_model: "anneal/tiny-chat" };
    return {
      valid: { path: "/v1/preview/models", body },
      foreign: { path: "/v1/preview/models", body: { ...body, entity: w.other.name } },
      forbidden: { as: "annotator", path: "/v1/preview/models", body: { ...body, entity: w.team.name } },
    };
  },
  ...modelRouteCases("deleteModel", ""),
  ...modelRouteCases("listCheckpoints", "/checkpoints"),
  ...modelRouteCases("deleteCheckpoints", "/checkpoints", { steps: [1] }),
  ...modelRouteCases("importCheckpoint", "/checkpoints", new Uint8Array(Buffer.from("GGUF"))),
  ...modelRouteCases("downloadCheckpoint", "/checkpoints/1/download"),
  ...modelRouteCases("logTrajectories", "/log", { split: "val", trajectory_groups: [] }),
  listTrainedModels: (w) => ({
    valid: { path: "/v1/preview/models" },
    foreign: { path: `/v1/preview/models?entity=${w.other.name}` },
    forbidden: { as: "annotator", path: `/v1/preview/models?project=${w.team.name}/matrix` },
  }),
  ...modelRouteCases("getModel", ""),
  ...modelRouteCases("listTrajectoryGroups", "/trajectory-groups"),
  ...modelRouteCases("getModelMetrics", "/metrics"),
  ...modelRouteCases("feedbackByCheckpoint", "/feedback-by-checkpoint"),
  ...modelRouteCases("getLearningCurve", "/learning-curve"),
  // Base models are the instance's: any caller may ask what training on one costs.
  getTrainingEstimate: () => ({ valid: { path: "/v1/preview/training-estimate?base_model=anneal/tiny-chat-2" }, foreign: null, forbidden: null }),
  createRlTrainingJob: (w) => jobSubmission("/v1/preview/training-jobs", w, { trajectory_groups: [] }),
  createSftTrainingJob: (w) => jobSubmission("/v1/preview/sft-training-jobs", w, { training_data: [{ messages: [{ role: "assistant", content: "x" }] }] }),
  buildSftDatasetFromJudgement: (w) => fromQueueJudgement("/v1/preview/judgement/sft-dataset", w, { corrected_reply_spec: "fix" }),
  previewRlGroupsFromJudgement: (w) => fromQueueJudgement("/v1/preview/judgement/rl-groups", w, { reward_spec: "score" }),
  createRlJobFromJudgement: (w) => fromQueueJudgement("/v1/preview/judgement/rl-jobs", w, { reward_spec: "score", model_id: w.model }),
  listTrainingJobs: () => ({
    valid: { path: "/v1/preview/training-jobs" },
    foreign: null, // lists only the caller's teams (a foreign model_id filter just matches nothing)
    forbidden: null,
  }),
  ...jobRouteCases("getTrainingJob", ""),
  ...jobRouteCases("getTrainingJobEvents", "/events"),
  ...jobRouteCases("cancelTrainingJob", "/cancel"),
  ...jobRouteCases("createJobBundle", "/bundle"),
  ...jobRouteCases("importJobBundleResult", "/bundle-result"),
  createRlRun: (w) => jobSubmission("/v1/preview/rl-runs", w, { prompts: { source: "inline", items: [{ messages: [{ role: "user", content: "x" }] }] }, checker: { type: "length", max: 5 } }),
  listRlRuns: () => ({ valid: { path: "/v1/preview/rl-runs" }, foreign: null, forbidden: null }),
  ...rlRunRouteCases("getRlRun", ""),
  ...rlRunRouteCases("cancelRlRun", "/cancel"),
  createFile: (w) => {
    const upload = (team?: string) => {
      const form = new FormData();
      form.append("file", new Blob(["{}\n"]), "a.jsonl");
      form.append("purpose", "fine-tune");
      if (team) form.append("team", team);
      return form;
    };
    return {
      valid: { path: "/v1/files", body: upload() },
      foreign: { path: "/v1/files", body: upload(w.other.name) },
      forbidden: { as: "annotator", path: "/v1/files", body: upload(w.team.name) },
    };
  },
  listFiles: (w) => ({
    valid: { path: "/v1/files" },
    foreign: { path: `/v1/files?team=${w.other.name}` },
    forbidden: { as: "annotator", path: `/v1/files?team=${w.team.name}` },
  }),
  listCalls: (w) => ({
    valid: { path: "/v1/calls" },
    foreign: { path: `/v1/calls?project=${w.other.name}/matrix` },
    forbidden: { as: "annotator", path: `/v1/calls?project=${w.team.name}/matrix` },
  }),
  getCall: (w) => ({
    valid: { path: `/v1/calls/${w.call}` },
    foreign: { path: `/v1/calls/${w.otherCall}` },
    forbidden: { as: "annotator", path: `/v1/calls/${w.call}` },
  }),
  ...fileRouteCases("getFile", ""),
  ...fileRouteCases("getFileContent", "/content"),
  ...fileRouteCases("deleteFile", ""),
  ...feedbackCases(),
  ...annotationSpecCases(),
  ...annotationQueueCases(),
  ...workerKeyCases(),
  ...workerCases(),
  revokeApiKey: (w) => ({
    valid: { path: `/v1/api-keys/${w.otherKeyId}` },
    foreign: { path: `/v1/api-keys/${w.otherKeyId}` },
    forbidden: null,
  }),
};

/** Worker keys are the instance's: only its admins manage them. */
function workerKeyCases(): Record<string, (w: World) => Case> {
  const body = { name: "never-created" };
  const one = `/v1/preview/worker-keys/${randomUUID()}`;
  return {
    createWorkerKey: () => ({ valid: { path: "/v1/preview/worker-keys", body }, foreign: null, forbidden: { as: "non-admin", path: "/v1/preview/worker-keys", body } }),
    listWorkerKeys: () => ({ valid: { path: "/v1/preview/worker-keys" }, foreign: null, forbidden: { as: "non-admin", path: "/v1/preview/worker-keys" } }),
    revokeWorkerKey: () => ({ valid: { path: one }, foreign: null, forbidden: { as: "non-admin", path: one } }),
  };
}

/** The remote-worker protocol takes a worker key and nothing else (the checks below send user keys
 *  and passwords); a lease's routes name a token, which fences them (409 when stale), not a tenant. */
function workerCases(): Record<string, (w: World) => Case> {
  const token = `${randomUUID()}.${"0".repeat(32)}`;
  const lease = (suffix: string, body?: unknown): Case => ({ valid: { path: `/v1/workers/leases/${token}/${suffix}`, body }, foreign: null, forbidden: null });
  const capabilities = { kinds: ["sft"], modes: ["lora"], bases: [], max_rank: 16 };
  return {
    leaseWorkerJob: () => ({ valid: { path: "/v1/workers/lease", body: { instance: "matrix", version: 1, capabilities } }, foreign: null, forbidden: null }),
    probeWorkerBase: () => ({ valid: { path: "/v1/workers/probe", body: { instance: "matrix", base: "test/tiny", logprobs: [0, -1] } }, foreign: null, forbidden: null }),
    getLeaseInputs: () => lease("inputs"),
    getLeaseStartAdapter: () => lease("start-adapter"),
    getLeaseStartGguf: () => lease("start-gguf"),
    getLeaseState: () => lease("state"),
    commitLeaseState: () => lease("state", { upload_id: randomUUID(), step: 1, format: "anneal-node-1" }),
    leaseHeartbeat: () => lease("heartbeat"),
    appendLeaseEvents: () => lease("events", { events: [] }),
    createLeaseUpload: () => lease("uploads", { purpose: "state", bytes: 1, sha256: "0".repeat(64) }),
    putLeaseUploadChunk: () => lease(`uploads/${randomUUID()}`, new Uint8Array(1)),
    getLeaseUpload: () => lease(`uploads/${randomUUID()}`),
    completeLease: () => lease("complete", { upload_id: randomUUID() }),
    failLease: () => lease("fail", {}),
  };
}

/** Feedback routes name their project in the body; annotators may write, replacing or purging only their own rows. */
function feedbackCases(): Record<string, (w: World) => Case> {
  const note = (team: string, extra: Record<string, unknown> = {}) => ({
    project_id: `${team}/matrix`, svc_ref: `svc:///${team}/matrix/call/${randomUUID()}`, feedback_type: "wandb.note.1", payload: { note: "n" }, ...extra,
  });
  const stats = (team: string) => ({ project_id: `${team}/matrix`, start: "2024-01-01T00:00:00Z" });
  const byId = (team: string, id: string) => ({ project_id: `${team}/matrix`, query: { $expr: { $eq: [{ $getField: "id" }, { $literal: id }] } } });
  return {
    createFeedback: (w) => ({ valid: { path: "/feedback/create", body: note(w.team.name) }, foreign: { path: "/feedback/create", body: note(w.other.name) }, forbidden: null }),
    replaceFeedback: (w) => ({
      valid: { path: "/feedback/replace", body: note(w.team.name, { feedback_id: randomUUID() }) },
      foreign: { path: "/feedback/replace", body: note(w.other.name, { feedback_id: randomUUID() }) },
      forbidden: { as: "annotator", path: "/feedback/replace", body: note(w.team.name, { feedback_id: w.feedback }) },
    }),
    queryFeedback: (w) => ({ valid: { path: "/feedback/query", body: { project_id: `${w.team.name}/matrix` } }, foreign: { path: "/feedback/query", body: { project_id: `${w.other.name}/matrix` } }, forbidden: null }),
    feedbackStats: (w) => ({ valid: { path: "/feedback/stats", body: stats(w.team.name) }, foreign: { path: "/feedback/stats", body: stats(w.other.name) }, forbidden: null }),
    feedbackPayloadKeys: (w) => ({ valid: { path: "/feedback/stats/keys", body: stats(w.team.name) }, foreign: { path: "/feedback/stats/keys", body: stats(w.other.name) }, forbidden: null }),
    purgeFeedback: (w) => ({
      valid: { path: "/feedback/purge", body: byId(w.team.name, randomUUID()) },
      foreign: { path: "/feedback/purge", body: byId(w.other.name, randomUUID()) },
      forbidden: { as: "annotator", path: "/feedback/purge", body: byId(w.team.name, w.feedback) },
    }),
  };
}

/** A project's annotation specs: every role reads them; members and admins write them. */
function annotationSpecCases(): Record<string, (w: World) => Case> {
  const specs = (team: string, name = "") => `/v1/teams/${team}/projects/matrix/annotation-specs${name && `/${name}`}`;
  const definition = { type: "boolean" };
  return {
    listAnnotationSpecs: (w) => ({ valid: { path: specs(w.team.name) }, foreign: { path: specs(w.other.name) }, forbidden: null }),
    createAnnotationSpec: (w) => ({
      valid: { path: specs(w.team.name), body: { name: "s", ...definition } },
      foreign: { path: specs(w.other.name), body: { name: "s", ...definition } },
      forbidden: { as: "annotator", path: specs(w.team.name), body: { name: "s", ...definition } },
    }),
    getAnnotationSpec: (w) => ({ valid: { path: specs(w.team.name, "s") }, foreign: { path: specs(w.other.name, "s") }, forbidden: null }),
    updateAnnotationSpec: (w) => ({
      valid: { path: specs(w.team.name, "s"), body: definition },
      foreign: { path: specs(w.other.name, "s"), body: definition },
      forbidden: { as: "annotator", path: specs(w.team.name, "s"), body: definition },
    }),
    deleteAnnotationSpec: (w) => ({
      valid: { path: specs(w.team.name, "s") },
      foreign: { path: specs(w.other.name, "s") },
      forbidden: { as: "annotator", path: specs(w.team.name, "s") },
    }),
  };
}

/** Annotation queues: annotators reach the queues assigned to them (to annotate); changing a queue or its items takes a member or admin. */
function annotationQueueCases(): Record<string, (w: World) => Case> {
  const queue = (q: World["queue"], suffix = "") => `/annotation_queues/${q.id}${suffix}`;
  const item = (q: World["queue"], suffix = "") => queue(q, `/items/${q.item}${suffix}`);
  const onQueue = (path: (q: World["queue"]) => string, forbidden: boolean, body?: (w: World, q: World["queue"]) => unknown) => (w: World): Case => ({
    valid: { path: path(w.queue), body: body?.(w, w.queue) },
    foreign: { path: path(w.otherQueue), body: body?.(w, w.otherQueue) },
    forbidden: forbidden ? { as: "annotator", path: path(w.queue), body: body?.(w, w.queue) } : null,
  });
  const create = (team: string) => ({ project: `${team}/matrix`, name: "q", specs: [{ name: "s" }] });
  return {
    listAnnotationQueues: (w) => ({ valid: { path: "/annotation_queues" }, foreign: { path: `/annotation_queues?project=${w.other.name}/matrix` }, forbidden: null }),
    createAnnotationQueue: (w) => ({
      valid: { path: "/annotation_queues", body: create(w.team.name) },
      foreign: { path: "/annotation_queues", body: create(w.other.name) },
      forbidden: { as: "annotator", path: "/annotation_queues", body: create(w.team.name) },
    }),
    getAnnotationQueue: onQueue((q) => queue(q), false),
    updateAnnotationQueue: onQueue((q) => queue(q), true, () => ({ name: "renamed" })),
    deleteAnnotationQueue: onQueue((q) => queue(q), true),
    getAnnotationQueueStats: onQueue((q) => queue(q, "/stats"), false),
    listAnnotationQueueItems: onQueue((q) => queue(q, "/items"), false),
    addAnnotationQueueItems: onQueue((q) => queue(q, "/items"), true, (w) => ({ call_ids: [w.call] })),
    getAnnotationQueueItem: onQueue((q) => item(q), false),
    removeAnnotationQueueItem: onQueue((q) => item(q), true),
    updateAnnotationQueueItemProgress: onQueue((q) => item(q, "/progress"), false, (w) => ({ project_id: `${w.team.name}/matrix`, annotation_state: "in_progress" })),
    submitAnnotationQueueItem: onQueue((q) => item(q, "/submit"), false, () => ({ values: { s: true } })),
    skipAnnotationQueueItem: onQueue((q) => item(q, "/skip"), false, () => ({})),
    releaseAnnotationQueueItem: onQueue((q) => item(q, "/release"), false),
    // Reviewing is for members and admins: an annotator assigned to the queue is a 403.
    reviewAnnotationQueueItem: onQueue((q) => item(q, "/review"), true, () => ({ review_state: "accepted" })),
    exportAnnotationQueueAnnotations: onQueue((q) => queue(q, "/export?format=csv"), false),
    claimNextAnnotationQueueItem: onQueue((q) => queue(q, "/next"), false),
  };
}

/** Submitting a job for a model: another team's model is 404; an annotator is 403. */
function jobSubmission(path: string, w: World, body: Record<string, unknown>): Case {
  return {
    valid: { path, body: { model_id: w.model, ...body } },
    foreign: { path, body: { model_id: w.otherModel, ...body } },
    forbidden: { as: "annotator", path, body: { model_id: w.model, ...body } },
  };
}

/** Training data from a queue's judgement: another team's queue is 404; an annotator (assigned to it) is 403. */
function fromQueueJudgement(path: string, w: World, body: Record<string, unknown>): Case {
  return {
    valid: { path, body: { queue_id: w.queue.id, ...body } },
    foreign: { path, body: { queue_id: w.otherQueue.id, ...body } },
    forbidden: { as: "annotator", path, body: { queue_id: w.queue.id, ...body } },
  };
}

/** Routes on one job: another team's job is 404; an annotator of the job's team is 403. */
function jobRouteCases(id: string, suffix: string): Record<string, (w: World) => Case> {
  return {
    [id]: (w) => ({
      valid: { path: `/v1/preview/training-jobs/${w.job}${suffix}` },
      foreign: { path: `/v1/preview/training-jobs/${w.otherJob}${suffix}` },
      forbidden: { as: "annotator", path: `/v1/preview/training-jobs/${w.job}${suffix}` },
    }),
  };
}

/** Routes on one RL run: another team's run is 404; an annotator of the run's team is 403. */
function rlRunRouteCases(id: string, suffix: string): Record<string, (w: World) => Case> {
  return {
    [id]: (w) => ({
      valid: { path: `/v1/preview/rl-runs/${w.run}${suffix}` },
      foreign: { path: `/v1/preview/rl-runs/${w.otherRun}${suffix}` },
      forbidden: { as: "annotator", path: `/v1/preview/rl-runs/${w.run}${suffix}` },
    }),
  };
}

/** Routes on one model: another team's model is 404; an annotator of the model's team is 403. */
function modelRouteCases(id: string, suffix: string, body?: unknown): Record<string, (w: World) => Case> {
  return {
    [id]: (w) => ({
      valid: { path: `/v1/preview/models/${w.model}${suffix}`, body },
      foreign: { path: `/v1/preview/models/${w.otherModel}${suffix}`, body },
      forbidden: { as: "annotator", path: `/v1/preview/models/${w.model}${suffix}`, body },
    }),
  };
}

/** Routes on one file: another team's file is 404; an annotator of the file's team is 403. */
function fileRouteCases(id: string, suffix: string): Record<string, (w: World) => Case> {
  return {
    [id]: (w) => ({
      valid: { path: `/v1/files/${w.file}${suffix}` },
      foreign: { path: `/v1/files/${w.otherFile}${suffix}` },
      forbidden: { as: "annotator", path: `/v1/files/${w.file}${suffix}` },
    }),
  };
}

const protectedOps = ALL_OPERATIONS.filter((op) => op.auth !== "public");
let world: World;

beforeAll(async () => {
  const [team, other, admin] = await Promise.all([createTestTeam(), createTestTeam(), createTestUser({ admin: true })]);
  const otherKey = await getDb().apiKey.findFirstOrThrow({ where: { userId: other.admin.principal.user.id } });
  const projectIn = async (t: Team) => (await getDb().project.create({ data: { teamId: t.id, name: "matrix" } })).id;
  const [project, otherProject] = [await projectIn(team), await projectIn(other)];
  const modelIn = async (projectId: string) => (await getDb().model.create({ data: { projectId, name: "m", baseModel: "test/tiny" } })).id;
  const callIn = async (projectId: string) =>
    (await getDb().call.create({
      data: { projectId, traceId: randomUUID(), opName: "chat.completions", requestId: "r", model: "test/tiny", baseModel: "test/tiny", inputs: {}, status: "success", startedAt: new Date() },
    })).id;
  const fileIn = async (t: Team) =>
    (await getDb().file.create({ data: { teamId: t.id, filename: "a.jsonl", purpose: "fine-tune", bytes: 0, path: "missing" } })).id;
  const jobOf = async (modelId: string) =>
    (await getDb().trainingJob.create({ data: { modelId, kind: "sft", status: "cancelled", input: "{}" } })).id;
  const runOf = async (modelId: string) =>
    (await getDb().rlRun.create({
      data: { modelId, status: "cancelled", prompts: "[]", promptSource: {}, checker: {}, groupSize: 2, iterations: 1, promptsPerIteration: 1, temperature: 1, maxTokens: 1 },
    })).id;
  const [model, otherModel] = [await modelIn(project), await modelIn(otherProject)];
  const callIds = [await callIn(project), await callIn(otherProject)];
  const queueIn = async (t: Team, projectId: string, callId: string) => {
    const { id, items } = await getDb().annotationQueue.create({
      data: {
        projectId, name: "q", createdById: t.admin.principal.user.id,
        annotators: { create: { userId: t.annotator.principal.user.id } },
        items: { create: { callId, addedById: t.admin.principal.user.id } },
      },
      select: { id: true, items: { select: { id: true } } },
    });
    return { id, item: items[0].id };
  };
  world = {
    team, other, admin, otherKeyId: otherKey.id, model, otherModel,
    file: await fileIn(team), otherFile: await fileIn(other),
    job: await jobOf(model), otherJob: await jobOf(otherModel),
    run: await runOf(model), otherRun: await runOf(otherModel),
    call: callIds[0], otherCall: callIds[1],
    feedback: (await getDb().feedback.create({
      data: { projectId: project, feedbackType: "wandb.note.1", payload: { note: "n" }, svcRef: `svc:///${team.name}/matrix/call/${randomUUID()}`, wbUserId: team.admin.principal.user.id },
    })).id,
    queue: await queueIn(team, project, callIds[0]),
    otherQueue: await queueIn(other, otherProject, callIds[1]),
    workerKey: (await createTestWorkerKey()).key,
  };
});

function callerKey(as: "member" | "annotator" | "non-admin"): string {
  return as === "non-admin" ? world.team.admin.key : world.team[as].key;
}

/** An API key in the operation's own scheme (Basic routes take it as api:<key>). */
const withKey = (op: Operation, key: string) => (op.auth === "basic" ? { basic: ["api", key] as [string, string] } : { bearer: key });

describe("route registry", () => {
  it("every route file's methods are registered operations, and every operation has a route", async () => {
    const fromFiles: string[] = [];
    for (const route of ROUTE_FILES) {
      if (route.path.startsWith("/api/auth")) continue; // next-auth's own routes
      for (const method of await routeMethods(route)) fromFiles.push(`${method} ${route.path}`);
    }
    const registered = ALL_OPERATIONS.map((op) => `${op.method} ${op.path}`);
    expect(fromFiles.sort()).toEqual([...registered].sort());
  });

  it("the public routes are exactly health, system check and the OpenAPI document", () => {
    expect(PUBLIC_ROUTES.sort()).toEqual(["GET /v1/health", "GET /v1/openapi.json", "GET /v1/system-check"]);
  });

  it("every protected operation has an auth-matrix case", () => {
    expect(protectedOps.map((op) => op.id).filter((id) => !CASES[id])).toEqual([]);
  });
});

describe.each(protectedOps.map((op): [string, Operation] => [`${op.method} ${op.path}`, op]))("%s", (_, op) => {
  const theCase = () => CASES[op.id](world);

  it("401 without credentials, with a challenge", async () => {
    const { path, body } = theCase().valid;
    const response = await api(op.method, path, { body });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(op.auth === "basic" ? /^Basic/ : /^Bearer/);
    expect((await response.json()).detail).toMatch(/Missing credentials/);
  });

  it("401 with the wrong scheme or a bad credential", async () => {
    const { path, body } = theCase().valid;
    const wrongScheme =
      op.auth === "bearer"
        ? await api(op.method, path, { body, basic: [world.team.admin.username, world.team.admin.password] })
        : await api(op.method, path, { body, bearer: world.team.admin.key });
    expect(wrongScheme.status).toBe(401);
    const bad =
      op.auth === "bearer"
        ? await api(op.method, path, { body, bearer: `${world.team.admin.key.slice(0, 12)}${"x".repeat(40)}` })
        : // a login of its own per route: wrong passwords for one account are throttled after 5 (429)
          await api(op.method, path, { body, basic: [`nobody-${op.id}`, "wrong password"] });
    expect(bad.status).toBe(401);
  });

  it("401 for the other kind of key: a worker key outside /v1/workers, a user's key and session on it", async () => {
    const { path, body } = theCase().valid;
    const other = op.auth === "worker" ? world.team.admin.key : world.workerKey;
    expect((await api(op.method, path, { body, ...withKey(op, other) })).status).toBe(401);
  });

  it("404 for another team's resource", async () => {
    const foreign = theCase().foreign;
    if (!foreign) return; // the route addresses only the caller's own data
    const response = await api(op.method, foreign.path, { body: foreign.body, headers: foreign.headers, ...withKey(op, world.team.admin.key) });
    expect(response.status).toBe(404);
  });

  it("403 for a role without permission", async () => {
    const forbidden = theCase().forbidden;
    if (!forbidden) return;
    const response = await api(op.method, forbidden.path, { body: forbidden.body, headers: forbidden.headers, ...withKey(op, callerKey(forbidden.as)) });
    expect(response.status).toBe(403);
    expect((await response.json()).detail).toEqual(expect.any(String));
  });
});

describe("public routes", () => {
  it.each(["/v1/health", "/v1/openapi.json"])("%s answers without credentials", async (path) => {
    expect((await api("GET", path)).status).toBe(200);
  });
});
