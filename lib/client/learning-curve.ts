import type { LearningCurveDto } from "@/lib/training/models/schemas";
import { shortJobId } from "@/lib/client/job-progress";
import { metricFamilies, type MetricFamily, type StepMetrics } from "@/lib/client/metric-series";

// Shapes GET .../learning-curve for the model page's chart across jobs and the playground's
// checkpoint picker: chart points on the global-step axis, each job's span on it, and the
// servable checkpoints with the job that wrote each and one metric to tell them apart.

export type LearningCurve = LearningCurveDto;
type CurveJob = LearningCurve["jobs"][number];

/** Every place on the axis with its metrics: a gradient step's, overlaid by the numbers of the
 *  checkpoint written there (its job's final ones, e.g. the best epoch's val/loss). */
export function curveSteps(curve: LearningCurve): StepMetrics[] {
  const byStep = new Map<number, Record<string, number>>();
  for (const s of curve.gradient_steps) byStep.set(s.global_step, { ...byStep.get(s.global_step), ...s.metrics });
  for (const s of curve.model_steps) byStep.set(s.global_step, { ...byStep.get(s.global_step), ...s.metrics });
  return [...byStep.entries()].sort(([a], [b]) => a - b).map(([step, metrics]) => ({ step, metrics }));
}

export const curveFamilies = (curve: LearningCurve): MetricFamily[] => metricFamilies(curveSteps(curve));

export interface JobSpan {
  id: string;
  /** `SFT · 3f2a9c1d` */
  label: string;
  status: CurveJob["status"];
  checkpointStep: number | null;
  /** The axis before its first step and at its last: the band it covers (equal: no step yet). */
  from: number;
  to: number;
}

export function jobLabel(job: Pick<CurveJob, "id" | "kind">): string {
  return `${job.kind.toUpperCase()} · ${shortJobId(job.id)}`;
}

/** The jobs that have a place on the axis (queued ones do not yet). */
export function jobSpans(curve: LearningCurve): JobSpan[] {
  return curve.jobs
    .filter((job) => job.status !== "queued")
    .map((job) => ({ id: job.id, label: jobLabel(job), status: job.status, checkpointStep: job.checkpoint_step, from: job.first_global_step - 1, to: job.last_global_step }));
}

/** The axis runs from the base model (0) to the last step of anything on it (at least 1). */
export function axisEnd(curve: LearningCurve): number {
  return Math.max(1, ...curve.jobs.map((j) => j.last_global_step), ...curve.model_steps.map((s) => s.global_step));
}

/** The job a place on the axis belongs to (a checkpoint at a job's end belongs to that job). */
export function spanAt(spans: JobSpan[], step: number): JobSpan | undefined {
  return spans.find((span) => step > span.from && step <= span.to);
}

/** Whether a job may still move the curve (poll while one does). */
export const curveIsLive = (curve: LearningCurve | undefined) => Boolean(curve?.jobs.some((j) => j.status !== "succeeded"));

export const KEY_METRICS = ["val/accuracy", "val/reward", "train/reward", "val/loss", "train/loss"];

/** The number that best tells checkpoints apart: held-out accuracy or reward, then training
 *  reward, then losses; else the first metric by name. */
export function keyMetric(metrics: Record<string, number>): [string, number] | null {
  const key = KEY_METRICS.find((k) => k in metrics) ?? Object.keys(metrics).sort()[0];
  return key === undefined ? null : [key, metrics[key]];
}

/** The `train/*` numbers a job's checkpoint carries as the mean over its gradient steps. */
const MEANS_OVER_STEPS = new Set(["train/loss", "train/entropy", "train/grad_norm", "train/num_trainable_tokens"]);

/** A checkpoint's number named so it is not mistaken for the job's step-by-step number of the same
 *  key: an SFT checkpoint keeps its best epoch's weights, so its val/* are that epoch's (not the last
 *  epoch's), and its train/loss is the mean over the job's steps (not the last step's). */
export function checkpointMetricLabel(key: string, metrics: Record<string, number>): string {
  if (key.startsWith("val/") && "val/best_epoch" in metrics && !["val/best_epoch"].includes(key) && !key.startsWith("val/base_")) return `best epoch ${key}`;
  if (MEANS_OVER_STEPS.has(key)) return `mean ${key} over the job's steps`;
  return key;
}

export type JobWarning = CurveJob["warnings"][number];

export interface CheckpointOption {
  step: number;
  /** Null for step 0 (the base model). */
  createdAt: string | null;
  job: { id: string; label: string; warnings: JobWarning[] } | null;
  /** Its label (checkpointMetricLabel) and value. */
  keyMetric: [string, number] | null;
}

/** The checkpoints one can chat with, newest first, then step 0: the base model. */
export function checkpointOptions(curve: LearningCurve): CheckpointOption[] {
  const jobs = new Map(curve.jobs.map((j) => [j.id, j]));
  const servable = curve.model_steps
    .filter((s) => s.checkpoint_id !== null)
    .map((s) => {
      const job = s.job_id ? jobs.get(s.job_id) : undefined;
      const key = keyMetric(s.metrics);
      return {
        step: s.step,
        createdAt: s.created_at,
        job: job ? { id: job.id, label: jobLabel(job), warnings: job.warnings } : null,
        keyMetric: key && ([checkpointMetricLabel(key[0], s.metrics), key[1]] as [string, number]),
      };
    })
    .reverse();
  const base = curve.model_steps.find((s) => s.step === 0);
  return [...servable, { step: 0, createdAt: null, job: null, keyMetric: base ? keyMetric(base.metrics) : null }];
}
