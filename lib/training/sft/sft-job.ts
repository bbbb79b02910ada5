// One SFT job on the training thread: its plan, its training and validation examples (a held-out
// share of the data, or validation examples of their own), the measurement of the starting
// weights, the gradient steps with val/* metrics at each epoch's end and early stopping, and at
// the end the kept weights (the best epoch's), their measurement, the guard rails' warnings and
// sample replies before/after. runTraining drives it: steps() is the job's step generator.
import type { AdamW } from "@/lib/engine/model/adamw";
import type { LlamaModel } from "@/lib/engine/model/llama-model";
import type { EncodedChat } from "@/lib/engine/tokenizer/chatml";
import type { TrainingVocabulary } from "@/lib/engine/tokenizer/training-vocabulary";
import { z } from "zod";
import { compileChecker, type Scorer } from "../checkers/checker-config";
import type { JobReport } from "../jobs/job-report";
import type { ModelTrainingDefaults } from "../model-defaults";
import type { ResumePoint } from "../resume-point";
import type { GradientStepMetrics } from "../gradient-step";
import { EarlyStopping } from "./early-stopping";
import { guardRailWarnings, type Measurement } from "./guard-rails";
import { baseProbe, probeAnswers, validationProbe, type BaseProbe, type Probe } from "./knowledge-probe";
import { interleave, rehearsalExamples, commonWrapper, type RehearsalSource } from "./rehearsal";
import { planSft, sftConfigSchema, type SftPlan } from "./sft-config";
import { accuracy, greedyReplies, heldOutPrompt, replyText, validationLoss, type HeldOutPrompt } from "./sft-evaluation";
import { sftSteps } from "./sft-step";
import { sftExampleSchema, tokenizeSftExample, type SftExample } from "./tokenize-sft-example";
import { splitValidation } from "./validation-split";

/** Held-out prompts replied to (for val/accuracy and the guard rails), at most. */
const CHECKED_PROMPTS = 32;
/** Without validation examples, the guard rails read replies to this many training prompts. */
const TRAINING_PROMPTS = 4;
/** Replies shown on the job's page. */
const SHOWN_SAMPLES = 4;
/** The split's seed: the same data always holds out the same examples. */
const SPLIT_SEED = 1;

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
  private readonly train: EncodedChat[][];
  /** Rehearsal examples among `train`. */
  readonly rehearsed: number;
  private readonly validationRows: EncodedChat[];
  private readonly prompts: HeldOutPrompt[];
  private readonly heldOut: boolean;
  private readonly score: Scorer | null;
  /** What the starting weights knew, asked again at the end; `probeIsHeldOut`: its prompts are the held-out ones. */
  private readonly probe: Probe | null;
  private readonly probeIsHeldOut: boolean;
  private readonly before: Measurement;
  private readonly stopping: EarlyStopping;
  private best: Float32Array | null = null;
  private epochsDone = 0;

  constructor(private readonly o: SftJobOptions) {
    const examples = z.array(sftExampleSchema).parse(o.data);
    const ownValidation = o.validationData ? z.array(sftExampleSchema).parse(o.validationData) : [];
    const config = sftConfigSchema.parse(o.config ?? {});
    const { contextLength } = o.model.config;
    const indexed = examples.map((example, index) => ({ example, index }));
    const split = splitValidation(indexed, config.validation_fraction ?? 0, SPLIT_SEED);
    // The starting weights' own replies, wrapped as every reply of the job is (rehearsal.ts).
    const wrapper = () => commonWrapper(split.train.map(({ example }) => heldOutPrompt(o.vocabulary.format, example).expected));
    const rehearsal = o.rehearsal
      ? rehearsalExamples(o.model, o.vocabulary, o.rehearsal, wrapper(), Math.round(o.rehearsal.perExample * split.train.length))
      : [];
    this.rehearsed = rehearsal.length;
    this.plan = planSft(config, o.defaults, examples.length, rehearsal.length);
    const encode = (list: string) => ({ example, index }: { example: SftExample; index: number }) =>
      tokenizeSftExample(o.vocabulary.format, example, this.plan.assistantTurns, contextLength, index, list);
    const own = split.train.map(encode("training_data"));
    this.train = interleave(own, rehearsal.map((example, index) => encode("rehearsal")({ example, index })));
    const validation = ownValidation.length ? ownValidation.map((example, index) => ({ example, index })) : split.validation;
    this.validationRows = validation.flatMap(encode(ownValidation.length ? "validation_data" : "training_data"));
    this.heldOut = validation.length > 0;
    const promptFrom = this.heldOut ? validation.slice(0, CHECKED_PROMPTS) : split.train.slice(0, TRAINING_PROMPTS);
    this.prompts = promptFrom.map(({ example }) => heldOutPrompt(o.vocabulary.format, example));
    this.score = this.plan.checker && this.heldOut ? compileChecker(this.plan.checker) : null;
    // The base's own set, else the validation prompts (with a checker, val/accuracy already compares them).
    this.probeIsHeldOut = !o.probe && this.heldOut && !this.score;
    this.probe = o.probe ? baseProbe(o.vocabulary.format, o.probe) : this.probeIsHeldOut ? validationProbe(this.prompts) : null;
    this.stopping = new EarlyStopping(this.heldOut ? this.plan.patience : null);
    // The starting weights, measured before any step (a resumed attempt restores its state later).
    this.before = this.measure();
  }

  get numSteps(): number {
    return this.plan.learningRates.length;
  }

  /** With validation, the best epoch's weights so far: saved with a resumable state, so a retried
   *  attempt still ends with them. */
  get keptWeights(): Float32Array | null {
    return this.best;
  }

  /** The gradient steps; the last step of each epoch carries `epoch` and, with validation,
   *  `val/loss` (and `val/accuracy` with a checker). Stops early when val/loss stops improving. */
  *steps(optimizer: AdamW, resume?: ResumePoint): Generator<GradientStepMetrics> {
    const { model } = this.o;
    const { padId } = this.o.vocabulary;
    if (resume && this.resumeEarlyStopping(resume)) return;
    for (const metrics of sftSteps(model, optimizer, padId, this.train, this.plan, resume, this.o.seed)) {
      if (metrics.step % this.plan.stepsPerEpoch !== 0) {
        yield metrics;
        continue;
      }
      const epoch = metrics.step / this.plan.stepsPerEpoch;
      this.epochsDone = epoch;
      if (!this.heldOut) {
        yield { ...metrics, epoch };
        continue;
      }
      const loss = validationLoss(model, padId, this.validationRows);
      const checked: Record<string, number> = this.score ? { "val/accuracy": accuracy(this.score, this.prompts, this.replies()) } : {};
      if (this.stopping.observe(epoch, loss)) this.best = model.params.values.slice();
      yield { ...metrics, epoch, "val/loss": loss, ...checked };
      if (this.stopping.shouldStop) return;
    }
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

  /** After the last step: keeps the best epoch's weights, measures them against the start, and
   *  returns the checkpoint's metrics and the job's report. */
  finish(steps: readonly GradientStepMetrics[]): { metrics: Record<string, number>; report: JobReport } {
    const { model } = this.o;
    if (this.best && this.stopping.bestEpoch < this.epochsDone) model.params.values.set(this.best);
    const after = this.measure();
    const metrics: Record<string, number> = { "train/num_examples": this.train.length, "train/epochs": this.epochsDone };
    if (this.probe && this.before.probe && after.probe) {
      const share = (right: readonly boolean[]) => right.filter(Boolean).length / right.length;
      Object.assign(metrics, { "probe/correct": share(after.probe.right), "probe/base_correct": share(this.before.probe.right) });
    }
    if (this.heldOut) {
      Object.assign(metrics, { "val/loss": after.loss, "val/base_loss": this.before.loss, "val/best_epoch": this.stopping.bestEpoch });
      if (this.score) Object.assign(metrics, { "val/accuracy": after.accuracy, "val/base_accuracy": this.before.accuracy });
    }
    const probe = this.probe && { source: this.probe.source, questions: this.probe.prompts.map((p) => p.question) };
    const warnings = guardRailWarnings(this.before, after, steps.map((s) => s.loss), this.heldOut, this.prompts.map((p) => p.expected), probe);
    const samples = this.prompts.slice(0, SHOWN_SAMPLES).map((prompt, i) => ({
      prompt: prompt.question,
      expected: prompt.expected,
      before: replyText(this.before.replies[i]),
      after: replyText(after.replies[i]),
      before_ended: this.before.replies[i].ended,
      after_ended: after.replies[i].ended,
      held_out: this.heldOut,
    }));
    return { metrics, report: { warnings, samples } };
  }

  private replies() {
    return greedyReplies(this.o.model, this.o.vocabulary, this.prompts);
  }

  private measure(): Measurement {
    const replies = this.replies();
    const probed = !this.probe ? null : this.probeIsHeldOut ? replies : greedyReplies(this.o.model, this.o.vocabulary, this.probe.prompts);
    return {
      loss: this.heldOut ? validationLoss(this.o.model, this.o.vocabulary.padId, this.validationRows) : NaN,
      accuracy: this.score ? accuracy(this.score, this.prompts, replies) : NaN,
      replies,
      probe: this.probe && probed && { right: probeAnswers(this.probe, probed), replies: probed.map(replyText) },
    };
  }
}
