import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { findModelForCaller } from "@/lib/training/models/find-model";
import type { LearningCurveDto } from "@/lib/training/models/schemas";

// GET .../learning-curve: a model's training on one axis, the global gradient step. Jobs that
// trained its weights follow one another (job 2's first step comes after job 1's last), so a
// curve reads across jobs; each checkpoint (and what was logged at its step) sits at the end of
// the job that wrote it, step 0 (the base model) at 0. Failed and cancelled jobs are left out:
// the next job started from the same weights as they did.

type Metrics = Record<string, number>;

const ON_THE_AXIS = ["succeeded", "running", "queued"] as const;
/** Steps kept per job: a long SFT job's curve reads the same from 500 evenly spaced steps. */
const MAX_STEPS_PER_JOB = 500;
/** Bookkeeping in gradient_step events, not metrics. */
const NOT_METRICS = new Set(["step", "attempt"]);

function stepMetrics(data: unknown): Metrics {
  const metrics: Metrics = {};
  if (typeof data !== "object" || data === null) return metrics;
  for (const [key, value] of Object.entries(data)) if (!NOT_METRICS.has(key) && typeof value === "number" && Number.isFinite(value)) metrics[key] = value;
  return metrics;
}

/** A job's steps by their number within the job. A retried attempt repeats the steps after its
 *  resume point: the newest report of a step is the one that counts. */
function jobSteps(events: { data: unknown }[]): Map<number, Metrics> {
  const steps = new Map<number, Metrics>();
  for (const { data } of events) {
    const step = (data as { step?: unknown }).step;
    steps.set(typeof step === "number" && Number.isInteger(step) && step >= 1 ? step : steps.size + 1, stepMetrics(data));
  }
  return steps;
}

/** Evenly spaced steps (the first and last included), and every step carrying a metric that most
 *  steps lack (SFT's val/* at each epoch's end). */
function keptSteps(steps: Map<number, Metrics>, count: number): number[] {
  const numbers = [...steps.keys()].sort((a, b) => a - b);
  if (count <= MAX_STEPS_PER_JOB) return numbers;
  const stride = Math.ceil(count / MAX_STEPS_PER_JOB);
  const keyCounts = new Map<string, number>();
  for (const metrics of steps.values()) for (const key of Object.keys(metrics)) keyCounts.set(key, (keyCounts.get(key) ?? 0) + 1);
  const sparse = (metrics: Metrics) => Object.keys(metrics).some((key) => keyCounts.get(key)! < steps.size / 2);
  return numbers.filter((n) => (n - 1) % stride === 0 || n === count || sparse(steps.get(n)!));
}

export async function getLearningCurve(principal: Principal, modelId: string): Promise<LearningCurveDto> {
  await findModelForCaller(principal, modelId, "use");
  const db = getDb();
  const [jobRows, checkpoints, logged] = await Promise.all([
    db.trainingJob.findMany({
      where: { modelId, status: { in: [...ON_THE_AXIS] } },
      orderBy: { seq: "asc" },
      select: { id: true, kind: true, status: true, checkpointStep: true, createdAt: true, warnings: true },
    }),
    db.checkpoint.findMany({ where: { modelId }, select: { id: true, step: true, metrics: true, createdAt: true } }),
    db.modelStepMetrics.findMany({ where: { modelId }, select: { step: true, metrics: true } }),
  ]);
  const events = await db.trainingJobEvent.findMany({
    where: { jobId: { in: jobRows.map((j) => j.id) }, type: "gradient_step" },
    orderBy: [{ jobId: "asc" }, { seq: "asc" }],
    select: { jobId: true, data: true },
  });
  const eventsByJob = new Map<string, { data: unknown }[]>();
  for (const e of events) {
    const list = eventsByJob.get(e.jobId);
    if (list) list.push(e);
    else eventsByJob.set(e.jobId, [e]);
  }

  const jobs: LearningCurveDto["jobs"] = [];
  const gradientSteps: LearningCurveDto["gradient_steps"] = [];
  let offset = 0;
  for (const job of jobRows) {
    const steps = jobSteps(eventsByJob.get(job.id) ?? []);
    const count = Math.max(0, ...steps.keys());
    for (const n of keptSteps(steps, count)) gradientSteps.push({ global_step: offset + n, job_id: job.id, metrics: steps.get(n)! });
    jobs.push({
      id: job.id,
      kind: job.kind as "rl" | "sft",
      status: job.status as (typeof ON_THE_AXIS)[number],
      checkpoint_step: job.checkpointStep,
      first_global_step: offset + 1,
      last_global_step: offset + count,
      created_at: job.createdAt.toISOString(),
      warnings: job.warnings as LearningCurveDto["jobs"][number]["warnings"],
    });
    offset += count;
  }

  const writers = jobs.filter((j) => j.checkpoint_step !== null);
  /** The end of the job that wrote the step; a step no job wrote goes after the last one before it. */
  const place = (step: number) => {
    const before = writers.filter((j) => j.checkpoint_step! <= step).at(-1);
    return { global_step: before?.last_global_step ?? 0, job_id: before?.checkpoint_step === step ? before.id : null };
  };
  const byStep = new Map<number, LearningCurveDto["model_steps"][number]>();
  for (const c of checkpoints) {
    byStep.set(c.step, { step: c.step, ...place(c.step), checkpoint_id: c.id, created_at: c.createdAt.toISOString(), metrics: c.metrics as Metrics });
  }
  for (const l of logged) {
    const known = byStep.get(l.step);
    const metrics = { ...known?.metrics, ...(l.metrics as Metrics) };
    byStep.set(l.step, known ? { ...known, metrics } : { step: l.step, ...place(l.step), checkpoint_id: null, created_at: null, metrics });
  }
  return { jobs, gradient_steps: gradientSteps, model_steps: [...byStep.values()].sort((a, b) => a.step - b.step) };
}
