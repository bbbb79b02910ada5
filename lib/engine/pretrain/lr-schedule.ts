// Learning rate per step: linear warmup from 0 to the peak, then cosine decay to a floor
// (a fraction of the peak) at the last step — the nanoGPT/llm.c schedule.

export interface LrSchedule {
  peak: number;
  warmupSteps: number;
  totalSteps: number;
  /** The rate at the last step as a fraction of the peak. */
  finalFraction: number;
}

/** The rate for step (0-based) `step` of the schedule. */
export function learningRate(s: LrSchedule, step: number): number {
  if (step < s.warmupSteps) return (s.peak * (step + 1)) / s.warmupSteps;
  const decaySteps = Math.max(1, s.totalSteps - 1 - s.warmupSteps);
  const progress = Math.min(1, (step - s.warmupSteps) / decaySteps);
  const floor = s.peak * s.finalFraction;
  return floor + (s.peak - floor) * 0.5 * (1 + Math.cos(Math.PI * progress));
}
