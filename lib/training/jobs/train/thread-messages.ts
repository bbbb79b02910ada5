import type { MessagePort } from "node:worker_threads";
import type { GradientStepMetrics } from "@/lib/training/gradient-step";
import type { JobReport } from "../job-report";
import type { SavedState } from "./state-saver";

/** What a training thread tells its runner, in this order: started, step… (with saved after some
 *  of them), an SFT job's report, then done, error or stopped. */
export type ThreadMessage =
  | { type: "started"; numSequences: number; fromStep: number }
  | { type: "step"; metrics: GradientStepMetrics }
  | { type: "saved"; state: SavedState }
  | { type: "report"; report: JobReport }
  | { type: "done"; metrics: Record<string, number> }
  | { type: "error"; message: string }
  /** Stopped at the runner's request, its state saved (after `saved`): the runner hands the job back. */
  | { type: "stopped" };

/** What a training thread asks of its runner: a port to the vocabulary thread, before its job
 *  starts, when its model's vocabulary is one only llama.cpp reads (lib/training/jobs/vocabulary/). */
export type ThreadRequest = { type: "vocabulary"; port: MessagePort };
