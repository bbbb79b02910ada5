// RL runs as callers see them: create, get, list, cancel. Creating checks the model, the checker
// and the prompts (fixed now, so a deleted file or call does not change a run) and queues the run;
// a training process (npm start's, or npm run worker) runs its iterations (run-driver.ts).
import type { Principal } from "@/lib/auth/principal";
import { requireInReach, teamIdsAllowing } from "@/lib/auth/team-access";
import { AppError, conflict, invalid, notFound } from "@/lib/contract/errors";
import { pageBySeq, type Page } from "@/lib/contract/pagination";
import { getDb } from "@/lib/db/client";
import type { Prisma, RlRun } from "@/lib/db/generated/client";
import { checkerNeedsReference, checkerProblem } from "@/lib/training/checkers/checker-config";
import { cancelJob } from "@/lib/training/jobs/jobs";
import { wakeLocalRunners } from "@/lib/training/jobs/wake";
import { findModelForCaller } from "@/lib/training/models/find-model";
import { trainableBase } from "@/lib/training/trainable-base";
import { loadRunPrompts } from "./run-prompts";
import type { CreateRlRunBody, IterationDto, RlRunDto, RlRunListQuery, RunStatus } from "./schemas";

type RunRow = Omit<RlRun, "prompts"> & { promptCount: number };

export function toRunDto(run: RunRow): RlRunDto {
  return {
    id: run.id,
    model_id: run.modelId,
    status: run.status as RunStatus,
    created_at: run.createdAt.toISOString(),
    started_at: run.startedAt?.toISOString() ?? null,
    finished_at: run.finishedAt?.toISOString() ?? null,
    error: run.error,
    prompt_source: run.promptSource as Record<string, unknown>,
    prompt_count: run.promptCount,
    checker: run.checker as Record<string, unknown>,
    group_size: run.groupSize,
    iterations: run.iterations,
    prompts_per_iteration: run.promptsPerIteration,
    temperature: run.temperature,
    max_tokens: run.maxTokens,
    seed: run.seed,
    experimental_config: run.trainingConfig as Record<string, unknown>,
    iterations_done: run.iteration,
    current_job_id: run.currentJobId,
    cancel_requested: run.cancelRequested,
    history: run.history as IterationDto[],
  };
}

/** Lists never load the prompts; the count is kept in the source summary. */
const withCount = (row: Omit<RlRun, "prompts">): RunRow => ({ ...row, promptCount: Number((row.promptSource as { prompt_count?: number }).prompt_count ?? 0) });

export async function createRlRun(principal: Principal, body: CreateRlRunBody): Promise<RlRunDto> {
  const problem = checkerProblem(body.checker);
  if (problem) throw invalid(["body", "checker", problem.field], problem.message);
  const model = await findModelForCaller(principal, body.model_id, "use");
  await trainableBase(model.baseModel);
  let prompts = await loadRunPrompts(principal, body.prompts);
  if (checkerNeedsReference(body.checker)) {
    prompts = prompts.filter((p) => p.reference !== undefined);
    if (!prompts.length) throw invalid(["body", "prompts"], `${body.checker.type} compares each reply with its prompt's reference, and none of the prompts has one`);
  }
  const { source, ...ids } = body.prompts;
  const promptSource = { source, ...("items" in ids ? {} : ids), prompt_count: prompts.length };
  const run = await getDb().rlRun.create({
    data: {
      modelId: model.id,
      createdById: principal.user.id,
      prompts: JSON.stringify(prompts),
      promptSource,
      checker: body.checker as Prisma.InputJsonValue,
      groupSize: body.group_size,
      iterations: body.iterations,
      promptsPerIteration: Math.min(body.prompts_per_iteration, prompts.length),
      temperature: body.temperature,
      maxTokens: body.max_tokens,
      seed: body.seed ?? null,
      trainingConfig: (body.experimental_config ?? {}) as Prisma.InputJsonValue,
    },
    omit: { prompts: true },
  });
  wakeLocalRunners();
  return toRunDto(withCount(run));
}

async function findRunForCaller(principal: Principal, runId: string) {
  const run = await getDb().rlRun.findUnique({ where: { id: runId }, omit: { prompts: true }, include: { model: { select: { project: { select: { teamId: true } } } } } });
  const found = await requireInReach(principal, run, (r) => r.model.project.teamId, "use", () => notFound(`RL run '${runId}' not found.`));
  const { model: _model, ...row } = found;
  return withCount(row);
}

export async function getRlRun(principal: Principal, runId: string): Promise<RlRunDto> {
  return toRunDto(await findRunForCaller(principal, runId));
}

export async function listRlRuns(principal: Principal, query: RlRunListQuery): Promise<Page<RlRunDto>> {
  const teamIds = await teamIdsAllowing(principal, "use");
  const where: Prisma.RlRunWhereInput = {
    model: { project: { teamId: { in: teamIds } } },
    ...(query.model_id ? { modelId: query.model_id } : {}),
    ...(query.status ? { status: query.status } : {}),
  };
  return pageBySeq({
    query,
    findSeq: async (id) => (await getDb().rlRun.findFirst({ where: { ...where, id }, select: { seq: true } }))?.seq,
    findRows: ({ seq, order, take }) => getDb().rlRun.findMany({ where: { ...where, seq }, omit: { prompts: true }, orderBy: { seq: order }, take }),
    toDto: (r) => toRunDto(withCount(r)),
  });
}

/** A queued run ends at once; a running one is flagged, its current job cancelled, and its driver
 *  ends it at its next look (within a heartbeat). Checkpoints already written stay. */
export async function cancelRlRun(principal: Principal, runId: string): Promise<RlRunDto> {
  const run = await findRunForCaller(principal, runId);
  if (run.status === "succeeded" || run.status === "failed") throw conflict(`RL run '${runId}' already ${run.status}.`);
  await getDb().rlRun.updateMany({
    where: { id: runId, status: "queued" },
    data: { status: "cancelled", cancelRequested: true, error: "Cancelled by a user before it started.", finishedAt: new Date() },
  });
  // Flag first, then read the job: a driver that queued one meanwhile did so before the flag.
  await getDb().rlRun.updateMany({ where: { id: runId, status: "running" }, data: { cancelRequested: true } });
  const { currentJobId } = await getDb().rlRun.findUniqueOrThrow({ where: { id: runId }, select: { currentJobId: true } });
  if (currentJobId) {
    await cancelJob(principal, currentJobId).catch((error: unknown) => {
      if (!(error instanceof AppError && error.code === "conflict")) throw error; // it finished meanwhile
    });
  }
  return getRlRun(principal, runId);
}
