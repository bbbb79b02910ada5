"use client";

import { AdapterSizeNote } from "@/components/models/adapter-size-note";
import { useTrainingEstimate, type TrainedModel } from "@/components/models/queries";
import { formatDuration } from "@/lib/client/job-progress";
import { formatBytes, formatCount } from "@/lib/client/sizes";

// What a launch form says about the job before it is sent: how the model trains (its LoRA settings,
// fixed when it was created, and the adapter's size) and, once the data is chosen, the job's steps,
// tokens and an estimate of its time and peak memory (GET /v1/preview/training-estimate, scaled
// from bench:lora's measurements).

/** The model's LoRA settings, read-only, with the adapter's size; or that it trains full weights. */
export function ModelTrainingSettings({ model }: { model: TrainedModel }) {
  const lora = model.lora;
  if (!lora) {
    return (
      <p data-testid="model-training-settings" className="mb-3 text-xs text-zinc-600">
        Trains <strong>full weights</strong>: each checkpoint is a whole model file.
      </p>
    );
  }
  return (
    <div data-testid="model-training-settings" className="mb-3 space-y-1 rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 text-xs text-zinc-600">
      <p>
        Trains a <strong>LoRA adapter</strong> (set when the model was created): rank {lora.rank}, alpha {lora.alpha}, dropout {lora.dropout}; modules{" "}
        <span className="font-mono">{lora.target_modules.join(", ")}</span>
      </p>
      <AdapterSizeNote baseModel={model.base_model} rank={lora.rank} modules={lora.target_modules} />
    </div>
  );
}

/** Steps, tokens, and (LoRA models) the estimated time and peak memory. An RL job passes its
 *  trajectories (`rlRows`) instead of steps: the server counts the steps it packs them into. */
export function JobCostEstimate({ model, tokens, ...job }: { model: TrainedModel; tokens: number } & ({ steps: number } | { rlRows: number })) {
  const lora = model.lora;
  const sized = "steps" in job ? { steps: job.steps } : { rl_rows: job.rlRows };
  const estimate = useTrainingEstimate(lora && tokens > 0 ? { base_model: model.base_model, rank: lora.rank, target_modules: lora.target_modules, tokens, ...sized } : null);
  const cost = estimate.data?.job;
  const steps = "steps" in job ? job.steps : cost?.steps;
  return (
    <p data-testid="job-cost" className="text-xs text-zinc-600" aria-live="polite">
      About <strong className="tabular-nums">{formatCount(tokens)} tokens</strong>
      {steps !== undefined && ` over ${steps} step${steps === 1 ? "" : "s"}`} (4 characters a token).{" "}
      {!lora ? (
        "No time estimate for full weights: bench:lora measures LoRA training."
      ) : cost ? (
        <span title={estimate.data?.basis}>
          Estimate: <strong className="tabular-nums">{range(cost.seconds.low, cost.seconds.high)}</strong> on 2 CPU cores, peak memory about{" "}
          <strong className="tabular-nums">{formatBytes(cost.peak_memory_bytes)}</strong> — scaled from bench:lora&apos;s measurements, a guide rather than a promise.
        </span>
      ) : null}
    </p>
  );
}

/** "40 s – 1 min 30 s", or one value when both round alike. */
function range(lowSeconds: number, highSeconds: number): string {
  const [low, high] = [formatDuration(lowSeconds * 1000), formatDuration(highSeconds * 1000)];
  return low === high ? low : `${low} – ${high}`;
}
