// One run's loop, from whatever state the database holds (so a restarted process continues at the
// iteration it was in): while the iteration waits for its RL job, wait for the job and record its
// checkpoint; otherwise roll out the iteration's prompts from the newest checkpoint, score them,
// and queue the job (or, when no group has different rewards, record the iteration with nothing
// to learn). Every write is conditional on holding the run's lease.
import { getDb } from "@/lib/db/client";
import type { RlRun } from "@/lib/db/generated/client";
import { checkerSchema, compileChecker } from "@/lib/training/checkers/checker-config";
import { wakeLocalRunners } from "@/lib/training/jobs/wake";
import { rewardStats } from "@/lib/training/rl/compute-group-advantages";
import { rolloutSeed } from "./rollout-seed";
import { currentWeights, rolloutGroup, type RolloutGroup } from "./rollouts";
import { endOwnedRun, writeOwnedRun } from "./run-lease";
import type { IterationDto, RunPrompt } from "./schemas";

export interface RunHandle {
  runId: string;
  workerId: string;
  pollMs: number;
  /** Aborted when the run must stop here: lease lost, process stopping, or a cancel was asked. */
  signal: AbortSignal;
  sleep(ms: number): Promise<void>;
}

export async function driveRun(h: RunHandle): Promise<void> {
  while (!h.signal.aborted) {
    const run = await getDb().rlRun.findUniqueOrThrow({ where: { id: h.runId } });
    if (run.cancelRequested) return endOwnedRun(h.runId, h.workerId, "cancelled", "Cancelled by a user.");
    if (run.currentJobId) await finishIteration(h, run, run.currentJobId);
    else if (run.iteration >= run.iterations) return endOwnedRun(h.runId, h.workerId, "succeeded", null);
    else await rollOutIteration(h, run);
  }
}

/** The prompts of iteration i: the next `promptsPerIteration` of the list, wrapping around. */
export function iterationPrompts(prompts: readonly RunPrompt[], iteration: number, perIteration: number): RunPrompt[] {
  return Array.from({ length: perIteration }, (_, j) => prompts[(iteration * perIteration + j) % prompts.length]);
}

async function rollOutIteration(h: RunHandle, run: RlRun): Promise<void> {
  const prompts = iterationPrompts(JSON.parse(run.prompts) as RunPrompt[], run.iteration, run.promptsPerIteration);
  const weights = await currentWeights(run.modelId);
  const score = compileChecker(checkerSchema.parse(run.checker));
  const groups: RolloutGroup[] = [];
  for (const [j, prompt] of prompts.entries()) {
    const seed = run.seed === null ? undefined : rolloutSeed(run.seed, run.iteration, j);
    groups.push(await rolloutGroup(prompt, { weights, n: run.groupSize, temperature: run.temperature, maxTokens: run.maxTokens, seed, score, signal: h.signal }));
    if (h.signal.aborted) return;
  }
  const rewards = groups.flatMap((g) => g.trajectories.map((t) => t.reward));
  const { mean, std } = rewardStats(rewards);
  const trainableGroups = groups.filter((g) => g.trajectories.some((t) => t.reward !== g.trajectories[0].reward)).length;
  const entry: IterationDto = {
    iteration: run.iteration,
    rollout_step: weights.step,
    reward_mean: mean,
    reward_std: std,
    trajectories: rewards.length,
    trainable_groups: trainableGroups,
    job_id: null,
    checkpoint_step: null,
    rolled_out_at: new Date().toISOString(),
    finished_at: null,
  };
  const history = run.history as IterationDto[];
  await writeOwnedRun(h.runId, h.workerId, async (tx, state) => {
    if (state.cancelRequested) return; // the loop ends the run
    if (trainableGroups === 0) {
      // Equal rewards in every group: an RL job would learn nothing (docs/rl-loss.md), so no job.
      const done = { ...entry, finished_at: entry.rolled_out_at };
      await tx.rlRun.update({ where: { id: run.id }, data: { iteration: run.iteration + 1, history: [...history, done] } });
      return;
    }
    const job = await tx.trainingJob.create({
      data: {
        modelId: run.modelId,
        kind: "rl",
        input: JSON.stringify({ trajectory_groups: groups }),
        config: run.trainingConfig ?? {},
        inputSummary: { trajectory_groups: groups.length, trajectories: rewards.length },
        createdById: run.createdById,
      },
      select: { id: true },
    });
    await tx.rlRun.update({ where: { id: run.id }, data: { currentJobId: job.id, history: [...history, { ...entry, job_id: job.id }] } });
  });
  wakeLocalRunners();
}

const FINISHED = ["succeeded", "failed", "cancelled"];

async function finishIteration(h: RunHandle, run: RlRun, jobId: string): Promise<void> {
  let job = await getDb().trainingJob.findUnique({ where: { id: jobId }, select: { status: true, error: true, checkpointStep: true } });
  while (job && !FINISHED.includes(job.status)) {
    await h.sleep(h.pollMs);
    if (h.signal.aborted) return;
    job = await getDb().trainingJob.findUnique({ where: { id: jobId }, select: { status: true, error: true, checkpointStep: true } });
  }
  const failure = !job ? `its RL job ${jobId} was deleted` : job.status === "succeeded" ? null : `its RL job ${jobId} ${job.status}${job.error ? `: ${job.error}` : ""}`;
  if (failure) {
    const { cancelRequested } = await getDb().rlRun.findUniqueOrThrow({ where: { id: run.id }, select: { cancelRequested: true } });
    if (cancelRequested) return endOwnedRun(h.runId, h.workerId, "cancelled", "Cancelled by a user.");
    return endOwnedRun(h.runId, h.workerId, "failed", `Iteration ${run.iteration + 1}: ${failure}.`);
  }
  const history = (run.history as IterationDto[]).map((e) =>
    e.job_id === jobId ? { ...e, checkpoint_step: job!.checkpointStep, finished_at: new Date().toISOString() } : e,
  );
  await writeOwnedRun(h.runId, h.workerId, (tx) =>
    tx.rlRun.update({ where: { id: run.id }, data: { iteration: run.iteration + 1, currentJobId: null, history } }),
  );
}
