import type { GradientStepMetrics } from "@/lib/training/rl/rl-step";

/** What a training thread tells its runner, in this order: started, step…, then done or error. */
export type ThreadMessage =
  | { type: "started"; numSequences: number }
  | { type: "step"; metrics: GradientStepMetrics }
  | { type: "done"; metrics: Record<string, number> }
  | { type: "error"; message: string };
