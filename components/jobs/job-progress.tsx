"use client";

import { useEffect, useState } from "react";
import type { Job } from "@/components/jobs/queries";
import { estimateRemainingMs, formatDuration, jobDurationMs, type StepPoint } from "@/lib/client/job-progress";

/** The current time, ticking every second while `live`. */
function useNow(live: boolean) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [live]);
  return now;
}

/** Steps done of the job's steps, with elapsed time and an ETA from the steps' timestamps. */
export function JobProgress({ job, points }: { job: Job; points: StepPoint[] }) {
  const live = job.status === "queued" || job.status === "running";
  const now = useNow(live);
  const total = job.num_sequences;
  const done = Math.max(job.steps_done, job.status === "running" ? points.length : 0);
  const fraction = total ? Math.min(1, done / total) : job.status === "succeeded" ? 1 : 0;
  const elapsed = jobDurationMs(job, now);
  const remaining = estimateRemainingMs(job, points, now);
  const bar = { succeeded: "bg-emerald-500", failed: "bg-red-500", cancelled: "bg-violet-400", running: "bg-sky-500", queued: "bg-zinc-300" }[job.status];

  return (
    <div>
      <div className="mb-1.5 flex items-baseline justify-between gap-4 text-sm">
        <span className="font-medium text-zinc-900" data-testid="job-steps">
          {total === null ? (job.status === "queued" ? "Waiting for a worker…" : "Preparing…") : `Step ${done} of ${total}`}
        </span>
        <span className="text-xs text-zinc-500 tabular-nums">
          {elapsed !== null && <>{live ? "Running for" : "Took"} {formatDuration(elapsed)}</>}
          {remaining !== null && remaining > 0 && <span data-testid="job-eta"> · about {formatDuration(remaining)} left</span>}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label="Training progress"
        aria-valuemin={0}
        aria-valuemax={total ?? 0}
        aria-valuenow={done}
        className="h-2.5 w-full overflow-hidden rounded-full bg-zinc-100"
      >
        <div className={`h-full rounded-full transition-[width] duration-500 ${bar} ${job.status === "running" && total === null ? "animate-pulse" : ""}`} style={{ width: `${Math.round(fraction * 100)}%` }} />
      </div>
    </div>
  );
}
