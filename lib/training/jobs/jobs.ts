// Training jobs as callers see them: submit (RL, SFT), get, list, cancel. Submission validates
// what it cheaply can (model, base, config, SFT data) and queues the job; a runner trains it.
import type { Principal } from "@/lib/auth/principal";
import { requireInReach, teamIdsAllowing } from "@/lib/auth/team-access";
import { getDb } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { conflict, invalid, notFound } from "@/lib/contract/errors";
import { pageBySeq, type Page } from "@/lib/contract/pagination";
import { requireServableRank } from "@/lib/inference/upstream-adapters";
import { findModelForCaller } from "@/lib/training/models/find-model";
import { storedLoraSettings } from "@/lib/engine/model/lora-settings";
import { checkerProblem } from "@/lib/training/checkers/checker-config";
import { planSft, type SftPlan } from "@/lib/training/sft/sft-config";
import { isChoice } from "@/lib/training/trajectories/schemas";
import { fileSource } from "@/lib/training/from-judgement/file-source";
import type { JudgementSource } from "@/lib/training/from-judgement/schemas";
import { loadSftExamples } from "./sft-data";
import { trainableBase, trainingDefaults } from "@/lib/training/trainable-base";
import type { JobInput, JobRun } from "./load-job-task";
import { insertEvent } from "./queue";
import { wakeLocalRunners } from "./wake";
import type { CreateRlJobBody, CreateSftJobBody, JobDto, JobKind, JobListQuery, JobStatus } from "./schemas";

type JobRow = Prisma.TrainingJobGetPayload<{ omit: { input: true } }>;

export function toJobDto(job: JobRow): JobDto {
  return {
    id: job.id,
    model_id: job.modelId,
    kind: job.kind as JobKind,
    status: job.status as JobStatus,
    created_at: job.createdAt.toISOString(),
    started_at: job.startedAt?.toISOString() ?? null,
    finished_at: job.finishedAt?.toISOString() ?? null,
    error: job.error,
    num_sequences: job.numSequences,
    steps_done: job.stepsDone,
    checkpoint_step: job.checkpointStep,
    attempts: job.attempts,
    runs: (job.runs as unknown as JobRun[]).map((r) => ({
      attempt: r.attempt, worker: r.worker, hostname: r.hostname, pid: r.pid, resumed_from_step: r.resumedFromStep, started_at: r.startedAt,
    })),
    cancel_requested: job.cancelRequested,
    config: (job.config ?? {}) as Record<string, unknown>,
    input_summary: (job.inputSummary ?? {}) as Record<string, number>,
    warnings: (job.warnings ?? []) as JobDto["warnings"],
    sample_replies: (job.sampleReplies ?? []) as JobDto["sample_replies"],
    source: (job.source ?? null) as JudgementSource | null,
    // Set by the job routes (lib/workers/waiting-for.ts), which look at the live trainers.
    waiting_for: null,
  };
}

/** The model, if the caller may train it, its base model can be trained here and will serve what it
 *  trains (else 400). */
async function trainableModel(principal: Principal, modelId: string) {
  const model = await findModelForCaller(principal, modelId, "use");
  await requireServableRank(model.baseModel, storedLoraSettings(model.lora));
  return { model, base: await trainableBase(model.baseModel) };
}

async function enqueue(principal: Principal, modelId: string, kind: JobKind, input: JobInput, config: object, inputSummary: Record<string, number>, source: JudgementSource | null) {
  const job = await getDb().trainingJob.create({
    data: {
      modelId, kind, input: JSON.stringify(input), config: config as Prisma.InputJsonValue, inputSummary, createdById: principal.user.id,
      source: (source ?? undefined) as Prisma.InputJsonValue | undefined,
    },
    omit: { input: true },
  });
  wakeLocalRunners();
  return toJobDto(job);
}

/** A Choice is the only trainable unit: a trajectory without one is a client mistake (often
 *  assistant messages sent where the recorded Choice belongs), not a job that silently learns nothing. */
function requireChoices(groups: CreateRlJobBody["trajectory_groups"]): void {
  groups.forEach((group, g) => group.trajectories.forEach((trajectory, t) => {
    if (![trajectory, ...trajectory.additional_histories].some((h) => h.messages_and_choices.some(isChoice))) {
      throw invalid(["body", "trajectory_groups", String(g), "trajectories", String(t), "messages_and_choices"],
        "a trajectory needs at least one Choice (the chat completion choice as returned, with logprobs) to train on; assistant messages are context only");
    }
  }));
}

/** `source`: the lineage of groups Anneal built from human judgement (lib/training/from-judgement). */
export async function createRlJob(principal: Principal, body: CreateRlJobBody, source: JudgementSource | null = null): Promise<JobDto> {
  const groups = body.trajectory_groups;
  requireChoices(groups);
  const { model } = await trainableModel(principal, body.model_id);
  const summary = { trajectory_groups: groups.length, trajectories: groups.reduce((n, g) => n + g.trajectories.length, 0) };
  return enqueue(principal, model.id, "rl", { trajectory_groups: groups }, body.experimental_config ?? {}, summary, source);
}

export async function createSftJob(principal: Principal, body: CreateSftJobBody): Promise<JobDto> {
  const { model, base } = await trainableModel(principal, body.model_id);
  const { input, examples, validationExamples } = await loadSftExamples(principal, body);
  // The schedule and the checker are checked now (a list of learning rates needs one per batch), not at run time.
  const plan = planSft(body.config, trainingDefaults(base, storedLoraSettings(model.lora) ? "lora" : "full"), examples.length);
  requireValidationFor(plan, validationExamples);
  // A file Anneal built from human judgement passes its lineage on to the job.
  const source = "file_id" in input ? await fileSource(input.file_id) : null;
  const summary = { examples: examples.length, ...(plan.validationFraction || validationExamples ? { validation_examples: validationExamples || examples.length - plan.numTrain } : {}) };
  return enqueue(principal, model.id, "sft", input, body.config ?? {}, summary, source);
}

/** A checker reads held-out replies: it needs validation examples, and must compile. */
function requireValidationFor(plan: SftPlan, validationExamples: number): void {
  if (!plan.checker) return;
  const at = ["body", "config", "validation_checker"];
  if (!plan.validationFraction && !validationExamples) throw invalid(at, "a checker needs validation examples: set validation_fraction, or send validation_data or validation_data_url");
  const problem = checkerProblem(plan.checker);
  if (problem) throw invalid([...at, problem.field], problem.message);
}

/** A job of a model the caller may use; another team's job is a 404. */
export async function findJobForCaller(principal: Principal, jobId: string) {
  const job = await getDb().trainingJob.findUnique({ where: { id: jobId }, omit: { input: true }, include: { model: { select: { project: { select: { teamId: true } } } } } });
  return requireInReach(principal, job, (j) => j.model.project.teamId, "use", () => notFound(`Training job '${jobId}' not found.`));
}

export async function getJob(principal: Principal, jobId: string): Promise<JobDto> {
  return toJobDto(await findJobForCaller(principal, jobId));
}

/** Jobs of the models the caller may use, newest first by default. */
export async function listJobs(principal: Principal, query: JobListQuery): Promise<Page<JobDto>> {
  const teamIds = await teamIdsAllowing(principal, "use");
  const where: Prisma.TrainingJobWhereInput = {
    model: { project: { teamId: { in: teamIds } } },
    ...(query.model_id ? { modelId: query.model_id } : {}),
    ...(query.status ? { status: query.status } : {}),
  };
  return pageBySeq({
    query,
    findSeq: async (id) => (await getDb().trainingJob.findFirst({ where: { ...where, id }, select: { seq: true } }))?.seq,
    findRows: ({ seq, order, take }) => getDb().trainingJob.findMany({ where: { ...where, seq }, omit: { input: true }, orderBy: { seq: order }, take }),
    toDto: toJobDto,
  });
}

/** Cancels a job: a queued one ends at once; a running one ends within a heartbeat (its runner
 *  stops the thread). Cancelling a cancelled job again is a no-op; a finished one is 409. */
export async function cancelJob(principal: Principal, jobId: string): Promise<JobDto> {
  const job = await findJobForCaller(principal, jobId);
  if (job.status === "succeeded" || job.status === "failed") throw conflict(`Training job '${jobId}' already ${job.status}.`);
  if (job.status === "queued") {
    await getDb().$transaction(async (tx) => {
      const n = await tx.trainingJob.updateMany({
        where: { id: jobId, status: "queued" },
        data: { status: "cancelled", error: "Cancelled by a user before it started.", finishedAt: new Date(), cancelRequested: true },
      });
      if (n.count === 1) await insertEvent(tx, jobId, "training_failed", { error_message: "Cancelled by a user before it started." });
    });
  }
  // Running (or claimed meanwhile): the runner sees the flag at its next heartbeat.
  await getDb().trainingJob.updateMany({ where: { id: jobId, status: "running" }, data: { cancelRequested: true } });
  return getJob(principal, jobId);
}
