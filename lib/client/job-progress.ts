// Pure shaping of a training job's feed for the console's monitor: gradient steps as chart
// points, which metrics to chart, the ETA from the steps' own timestamps, durations, and the
// bodies the launch forms send (calls → SFT examples, logged groups → RL groups).

export interface FeedEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
  created_at: string;
}

export interface StepPoint {
  step: number;
  /** When the step's event was written (ms since epoch). */
  at: number;
  [metric: string]: number;
}

/** The gradient_step events as points (numbers only; the step number as the x value). */
export function gradientSteps(events: FeedEvent[]): StepPoint[] {
  const points: StepPoint[] = [];
  for (const event of events) {
    if (event.type !== "gradient_step") continue;
    const point: StepPoint = { step: points.length + 1, at: Date.parse(event.created_at) };
    for (const [key, value] of Object.entries(event.data)) if (typeof value === "number" && Number.isFinite(value)) point[key] = value;
    points.push(point);
  }
  return points;
}

/** The metrics charted, in this order, when any step carries them (val/* on each epoch's last step). */
export const CHARTED_METRICS = ["loss", "val/loss", "val/accuracy", "reward", "entropy", "grad_norm"] as const;

export function chartedMetrics(points: StepPoint[]): string[] {
  return CHARTED_METRICS.filter((key) => points.some((p) => key in p));
}

/** Above this, serving and the trainer disagree on the sampled tokens' log-probs by more than the
 *  trainer's reproduction of llama.cpp's rounding leaves (docs/rl-loss.md: 0.018 measured on Q8_0). */
export const SERVED_LOG_RATIO_HINT = 0.02;

/** An RL job's served_abs_log_ratio (reported with its first gradient step) and whether it is above
 *  the hint; null when the job reports none (SFT, a resumed attempt, no served log-probs). */
export function servedLogRatio(points: StepPoint[]): { value: number; high: boolean } | null {
  const value = points.find((p) => "served_abs_log_ratio" in p)?.served_abs_log_ratio;
  return value === undefined ? null : { value, high: value > SERVED_LOG_RATIO_HINT };
}

interface ProgressJob {
  status: string;
  started_at: string | null;
  num_sequences: number | null;
  steps_done: number;
}

/**
 * Milliseconds left for a running job: the mean time per step so far (from the job's start, or
 * the first step when the start is unknown) times the steps left. Null until one step is done.
 */
export function estimateRemainingMs(job: ProgressJob, points: StepPoint[], now: number): number | null {
  if (job.status !== "running" || !job.num_sequences || points.length === 0) return null;
  const done = Math.max(job.steps_done, points.length);
  const left = job.num_sequences - done;
  if (left <= 0) return 0;
  const started = job.started_at ? Date.parse(job.started_at) : NaN;
  const last = points[points.length - 1].at;
  const perStep = Number.isFinite(started) && last > started ? (last - started) / done : points.length > 1 ? (last - points[0].at) / (points.length - 1) : null;
  if (perStep === null) return null;
  // The time since the last step already counts against the next one.
  return Math.max(0, left * perStep - Math.max(0, now - last));
}

/** "850 ms", "12 s", "3 min 4 s", "2 h 5 min". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

/** How long a job ran (or has been running); null before it started. */
export function jobDurationMs(job: { started_at: string | null; finished_at: string | null }, now: number): number | null {
  if (!job.started_at) return null;
  return Math.max(0, (job.finished_at ? Date.parse(job.finished_at) : now) - Date.parse(job.started_at));
}

/** Calls → SFT examples: the server builds datasets from judgement with the same function. */
export { callToExample } from "@/lib/training/sft/call-to-example";

interface LoggedTrajectory {
  messages_and_choices: unknown[];
  reward: number;
  tools?: unknown[] | null;
  chat_template_kwargs?: Record<string, unknown> | null;
  additional_histories?: unknown[] | null;
}

/** Logged trajectory groups as an RL job's input (only what training reads). */
export function groupsToRlInput(groups: { trajectories: LoggedTrajectory[] }[]) {
  return groups.map((group) => ({
    trajectories: group.trajectories.map((t) => ({
      messages_and_choices: t.messages_and_choices,
      reward: t.reward,
      ...(t.tools ? { tools: t.tools } : {}),
      ...(t.chat_template_kwargs ? { chat_template_kwargs: t.chat_template_kwargs } : {}),
      ...(t.additional_histories?.length ? { additional_histories: t.additional_histories } : {}),
    })),
  }));
}

/** A job id short enough for a table: its last 8 characters (UUIDv7 ids start with the time, so
 *  jobs created close together share their first ones). */
export const shortJobId = (id: string) => id.slice(-8);
