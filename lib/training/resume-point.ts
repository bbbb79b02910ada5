import type { GradientStepMetrics } from "./gradient-step";

/** Where a job's step generator (rlSteps, sftSteps) starts when a retried attempt resumes: after
 *  `step` gradient steps, with the saved state put in by restore() once the generator has done
 *  what it does before its first step (RL's π_old precalculation must see the job's start
 *  weights, as in the uninterrupted run). */
export interface ResumePoint {
  step: number;
  restore(): void;
  /** The saved steps' metrics (steps 1..step), for what a job derives from them (early stopping). */
  metrics: readonly GradientStepMetrics[];
  /** Weights the job had set aside to keep (an SFT job's best epoch), or null. */
  kept: Float32Array | null;
}
