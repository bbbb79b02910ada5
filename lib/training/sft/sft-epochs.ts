// An SFT job's gradient steps and what happens at each epoch's end: with validation rows, val/loss
// (and a caller's own val/* metrics) and early stopping that keeps the best epoch's weights, picked
// up again by a resumed attempt. SftJob runs it on the examples it tokenized; a job trained from a
// remote worker's inputs (train-from-inputs.ts) on the rows it was given.
import type { AdamW } from "@/lib/engine/model/adamw";
import type { LlamaModel } from "@/lib/engine/model/llama-model";
import type { EncodedChat } from "@/lib/engine/tokenizer/chatml";
import type { GradientStepMetrics } from "../gradient-step";
import type { ResumePoint } from "../resume-point";
import { EarlyStopping } from "./early-stopping";
import { validationLoss } from "./sft-evaluation";
import { sftSteps, type SftBatch } from "./sft-step";

export interface SftEpochsOptions {
  model: LlamaModel;
  /** Fills the rows after their last token. */
  padId: number;
  /** The examples trained on, each its rows. */
  train: readonly (readonly EncodedChat[])[];
  /** Gradient step k+1 trains batches[k]. */
  batches: readonly SftBatch[];
  stepsPerEpoch: number;
  /** The validation examples' rows; empty: no validation, no early stopping. */
  validationRows: readonly EncodedChat[];
  patience: number;
  /** The job's seed (a LoRA model's dropout masks). */
  seed: number;
  /** More val/* metrics at an epoch's end, measured before early stopping looks (val/accuracy). */
  checked?: (() => Record<string, number>) | null;
}

export class SftEpochs {
  readonly stopping: EarlyStopping;
  epochsDone = 0;
  private best: Float32Array | null = null;

  constructor(private readonly o: SftEpochsOptions) {
    this.stopping = new EarlyStopping(this.heldOut ? o.patience : null);
  }

  get heldOut(): boolean {
    return this.o.validationRows.length > 0;
  }

  get numSteps(): number {
    return this.o.batches.length;
  }

  /** With validation, the best epoch's weights so far: saved with a resumable state, so a retried
   *  attempt still ends with them. */
  get keptWeights(): Float32Array | null {
    return this.best;
  }

  /** Mean cross-entropy over the validation rows' weighted tokens; NaN without validation. */
  validationLoss(): number {
    return this.heldOut ? validationLoss(this.o.model, this.o.padId, this.o.validationRows) : NaN;
  }

  /** The gradient steps; the last step of each epoch carries `epoch` and, with validation,
   *  `val/loss` (and the caller's checked metrics). Stops early when val/loss stops improving. */
  *steps(optimizer: AdamW, resume?: ResumePoint): Generator<GradientStepMetrics> {
    const { model, padId, train, batches, stepsPerEpoch } = this.o;
    if (resume && this.resumeEarlyStopping(resume)) return;
    for (const metrics of sftSteps(model, optimizer, padId, train, batches, resume, this.o.seed)) {
      if (metrics.step % stepsPerEpoch !== 0) {
        yield metrics;
        continue;
      }
      const epoch = metrics.step / stepsPerEpoch;
      this.epochsDone = epoch;
      if (!this.heldOut) {
        yield { ...metrics, epoch };
        continue;
      }
      const loss = this.validationLoss();
      const checked = this.o.checked?.() ?? {};
      if (this.stopping.observe(epoch, loss)) this.best = model.params.values.slice();
      yield { ...metrics, epoch, "val/loss": loss, ...checked };
      if (this.stopping.shouldStop) return;
    }
  }

  /** After the last step: the best epoch's weights back in the model, when training went past it. */
  keepBest(): void {
    if (this.best && this.stopping.bestEpoch < this.epochsDone) this.o.model.params.values.set(this.best);
  }

  /** A resumed attempt picks up early stopping where the saved one was: the epochs' val/loss from
   *  the saved metrics, the best epoch's weights from the state. True when it had already stopped. */
  private resumeEarlyStopping(resume: ResumePoint): boolean {
    for (const m of resume.metrics) {
      if (m.epoch === undefined) continue;
      this.epochsDone = m.epoch;
      if (m["val/loss"] !== undefined) this.stopping.observe(m.epoch, m["val/loss"]);
    }
    this.best = resume.kept ? resume.kept.slice() : null;
    if (!this.stopping.shouldStop) return false;
    resume.restore(); // no step follows to put the saved weights in
    return true;
  }
}
