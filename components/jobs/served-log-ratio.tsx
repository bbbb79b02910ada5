"use client";

import { SERVED_LOG_RATIO_HINT, servedLogRatio, type StepPoint } from "@/lib/client/job-progress";

// An RL job's first-step check that training sees the log-probs serving reported for the sampled
// tokens (served_abs_log_ratio, docs/rl-loss.md), with what a large gap means.

export function ServedLogRatio({ points }: { points: StepPoint[] }) {
  const ratio = servedLogRatio(points);
  if (!ratio) return null;
  return (
    <div data-testid="served-log-ratio" className="mt-4 border-t border-zinc-100 pt-3 text-sm">
      <span className="text-zinc-500">Served vs trained log-prob gap, mean |Δ| at step 1:</span>{" "}
      <span className={`font-mono tabular-nums ${ratio.high ? "text-amber-700" : "text-zinc-900"}`}>{ratio.value.toPrecision(2)}</span>
      {ratio.high && (
        <p data-testid="served-log-ratio-hint" className="mt-1 text-xs text-amber-700">
          Above {SERVED_LOG_RATIO_HINT}: the trainer and serving disagree on these tokens&apos; log-probs by more than rounding explains,
          so the importance ratios mostly measure that mismatch rather than how far the policy moved. Set{" "}
          <code className="font-mono">experimental_config.precalculate_logprobs</code> to take π_old from the trainer instead.
        </p>
      )}
    </div>
  );
}
