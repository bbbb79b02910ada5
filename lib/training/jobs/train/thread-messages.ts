import type { GradientStepMetrics } from "@/lib/training/rl/rl-step";
import type { SavedState } from "./state-saver";

/** What a training thread tells its runner, in this order: started, step… (with saved after some
 *  of them), then done or error. */
export type ThreadMessage =
  | { type: "started"; numSequences: number; fromStep: number }
  | { type: "step"; metrics: GradientStepMetrics }
  | { type: "saved"; state: SavedState }
  | { type: "done"; metrics: Record<string, number> }
  | { type: "error"; message: string };
