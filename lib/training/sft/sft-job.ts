// One SFT job on the training thread: its plan, its training and validation examples (a held-out
// share of the data, or validation examples of their own: encode-sft-job.ts), the measurement of
// the starting weights, the gradient steps with val/* metrics at each epoch's end and early
// stopping (sft-epochs.ts), and at the end the kept weights (the best epoch's), their measurement,
// the guard rails' warnings and sample replies before/after (sft-checks.ts). runTraining drives it: steps() is the
// job's step generator.
import type { AdamW } from "@/lib/engine/model/adamw";
import type { LlamaModel } from "@/lib/engine/model/llama-model";
import type { TrainingVocabulary } from "@/lib/engine/tokenizer/training-vocabulary";
import type { JobReport } from "../jobs/job-report";
import type { ModelTrainingDefaults } from "../model-defaults";
import type { ResumePoint } from "../resume-point";
import type { GradientStepMetrics } from "../gradient-step";
import { encodeSftJob } from "./encode-sft-job";
import type { Measurement } from "./guard-rails";
import type { BaseProbe } from "./knowledge-probe";
import { rehearsalExamples, commonWrapper, type RehearsalSource } from "./rehearsal";
import type { SftPlan } from "./sft-config";
import { SftChecks } from "./sft-checks";
import { SftEpochs } from "./sft-epochs";
import { heldOutPrompt } from "./sft-evaluation";

export interface SftJobOptions {
  model: LlamaModel;
  /** The model's vocabulary: its conversations rendered and tokenized as serving does. */
  vocabulary: TrainingVocabulary;
  data: unknown;
  /** Validation examples of their own (validation_data / validation_data_url), or null. */
  validationData: unknown;
  config: unknown;
  defaults: ModelTrainingDefaults;
  /** The job's seed (a LoRA model's dropout masks); 0 when left out. */
  seed?: number;
  /** The base's own probe set, where it declares one (knowledge-probe.ts). */
  probe?: BaseProbe | null;
  /** Rehearsal examples mixed into training (rehearsal.ts): `perExample` for each example trained. */
  rehearsal?: (RehearsalSource & { perExample: number }) | null;
}

export class SftJob {
  readonly plan: SftPlan;
  /** Rehearsal examples among those trained on. */
  readonly rehearsed: number;
  private readonly numTrain: number;
  private readonly epochs: SftEpochs;
  private readonly checks: SftChecks;
  private readonly before: Measurement;

  constructor(private readonly o: SftJobOptions) {
    const { format } = o.vocabulary;
    const { rehearsal } = o;
    const encoded = encodeSftJob({
      format, contextLength: o.model.config.contextLength, data: o.data, validationData: o.validationData, config: o.config, defaults: o.defaults,
      // The starting weights' own replies, wrapped as every reply of the job is (rehearsal.ts).
      rehearse: rehearsal && ((train) =>
        rehearsalExamples(o.model, o.vocabulary, rehearsal, commonWrapper(train.map((example) => heldOutPrompt(format, example).expected)), Math.round(rehearsal.perExample * train.length))),
    });
    this.plan = encoded.plan;
    this.rehearsed = encoded.rehearsed;
    this.numTrain = encoded.train.length;
    this.checks = new SftChecks({ format, encoded, probe: o.probe });
    this.epochs = new SftEpochs({
      model: o.model, padId: o.vocabulary.padId, train: encoded.train, batches: encoded.batches, stepsPerEpoch: this.plan.stepsPerEpoch,
      validationRows: encoded.validation.flat(), patience: this.plan.patience, seed: o.seed ?? 0,
      checked: this.checks.checkedMetrics(o.model, o.vocabulary),
    });
    // The starting weights, measured before any step (a resumed attempt restores its state later).
    this.before = this.checks.measure(o.model, o.vocabulary);
  }

  get numSteps(): number {
    return this.epochs.numSteps;
  }

  /** With validation, the best epoch's weights so far: saved with a resumable state, so a retried
   *  attempt still ends with them. */
  get keptWeights(): Float32Array | null {
    return this.epochs.keptWeights;
  }

  /** The gradient steps; the last step of each epoch carries `epoch` and, with validation,
   *  `val/loss` (and `val/accuracy` with a checker). Stops early when val/loss stops improving. */
  steps(optimizer: AdamW, resume?: ResumePoint): Generator<GradientStepMetrics> {
    return this.epochs.steps(optimizer, resume);
  }

  /** After the last step: keeps the best epoch's weights, measures them against the start, and
   *  returns the checkpoint's metrics and the job's report. */
  finish(steps: readonly GradientStepMetrics[]): { metrics: Record<string, number>; report: JobReport } {
    this.epochs.keepBest();
    const after = this.checks.measure(this.o.model, this.o.vocabulary);
    const checked = this.checks.report(this.before, after, steps.map((s) => s.loss));
    const metrics: Record<string, number> = { "train/num_examples": this.numTrain, "train/epochs": this.epochs.epochsDone, ...checked.metrics };
    if (this.checks.heldOut) Object.assign(metrics, { "val/loss": after.loss, "val/base_loss": this.before.loss, "val/best_epoch": this.epochs.stopping.bestEpoch });
    return { metrics, report: checked.report };
  }
}
