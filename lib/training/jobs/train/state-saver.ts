// The training thread's side of resuming: the resume point a saved state gives (when it fits the
// job), and saving the state every so many steps or seconds, whichever comes first.
import path from "node:path";
import type { AdamW } from "@/lib/engine/model/adamw";
import type { LlamaModel } from "@/lib/engine/model/llama-model";
import { log } from "@/lib/log";
import type { ResumePoint } from "@/lib/training/resume-point";
import type { GradientStepMetrics } from "@/lib/training/gradient-step";
import { readTrainingState, startIdentity, writeTrainingState } from "./training-state";

export interface SaveSettings {
  /** The job's directory of saved states (absolute). */
  dir: string;
  /** The attempt saving: its files are a<attempt>-s<step>.state. */
  attempt: number;
  everySteps: number;
  everyMs: number;
}

export interface SavedState {
  step: number;
  /** The file, absolute. */
  file: string;
  bytes: number;
  ms: number;
}

/** The point to resume from, or undefined (start at step 0) when there is no state or it does not
 *  fit this job (other start weights, another step count, another model size). The saved steps'
 *  metrics go into `steps`. */
export function resumePointFrom(
  file: string | null | undefined, job: { startGguf: string; numSequences: number }, model: LlamaModel, optimizer: AdamW, steps: GradientStepMetrics[],
): ResumePoint | undefined {
  if (!file) return undefined;
  let state;
  try {
    state = readTrainingState(file);
  } catch (error) {
    log.warn("training: the saved state cannot be read; starting the job over", { file, error });
    return undefined;
  }
  const { header } = state;
  const misfit =
    header.start !== startIdentity(job.startGguf) ? `it was trained from ${header.start}` :
    header.numSequences !== job.numSequences ? `it belongs to a job of ${header.numSequences} steps, not ${job.numSequences}` :
    header.parameters !== model.params.count ? `it holds ${header.parameters} parameters, not ${model.params.count}` : null;
  if (misfit) {
    log.warn(`training: the saved state does not fit the job (${misfit}); starting the job over`, { file });
    return undefined;
  }
  steps.push(...header.metrics);
  return {
    step: header.step,
    metrics: header.metrics,
    kept: state.kept,
    restore: () => {
      model.params.values.set(state.values);
      optimizer.m.set(state.m);
      optimizer.v.set(state.v);
      optimizer.step = header.optimizerStep;
    },
  };
}

/** Saves a running job's state when one is due: after `everySteps` steps or `everyMs` since the
 *  last save (or the start), never after the job's last step (its checkpoint follows). */
export class StateSaver {
  private lastAt = Date.now();
  private lastStep: number;

  constructor(
    private readonly settings: SaveSettings | null | undefined,
    private readonly job: { startGguf: string; numSequences: number },
    fromStep: number,
  ) {
    this.lastStep = fromStep;
  }

  /** After each step: the state saved (with the weights the job keeps, if any), or null when none was due. */
  afterStep(model: LlamaModel, optimizer: AdamW, steps: readonly GradientStepMetrics[], kept: Float32Array | null = null): SavedState | null {
    const s = this.settings;
    if (!s) return null;
    const step = steps.length;
    const due = (s.everySteps > 0 && step - this.lastStep >= s.everySteps) || (s.everyMs > 0 && Date.now() - this.lastAt >= s.everyMs);
    return due ? this.saveNow(model, optimizer, steps, kept) : null;
  }

  /** Saves the state now, due or not (the runner is shutting down); null when saving is off, nothing
   *  is new since the last save, or the job has taken its last step. */
  saveNow(model: LlamaModel, optimizer: AdamW, steps: readonly GradientStepMetrics[], kept: Float32Array | null = null): SavedState | null {
    const s = this.settings;
    const step = steps.length;
    if (!s || step >= this.job.numSequences || step === this.lastStep) return null;
    const began = performance.now();
    const file = path.join(s.dir, `a${s.attempt}-s${step}.state`);
    const header = { step, numSequences: this.job.numSequences, start: startIdentity(this.job.startGguf), metrics: [...steps] };
    const bytes = writeTrainingState(file, header, model.params.values, optimizer, kept);
    this.lastStep = step;
    this.lastAt = Date.now();
    return { step, file, bytes, ms: performance.now() - began };
  }
}
