// The guard rails' side of an SFT job, apart from its training: the held-out prompts (the validation
// examples', else a few training examples'), the checker, the knowledge probe, a measurement of any
// weights on them, and the job's report from the starting weights' and the trained weights'
// measurements. SftJob measures its own model before and after its steps; the server measures a
// remote worker's checkpoint against the weights it started from with the same pieces
// (lib/workers/check-trained-weights.ts), so both report alike for the same weights.
import type { LlamaModel } from "@/lib/engine/model/llama-model";
import type { ChatFormat } from "@/lib/engine/tokenizer/chat-template";
import type { TrainingVocabulary } from "@/lib/engine/tokenizer/training-vocabulary";
import { compileChecker, type Scorer } from "../checkers/checker-config";
import type { JobReport } from "../jobs/job-report";
import type { EncodedSftJob } from "./encode-sft-job";
import { guardRailWarnings, type Measurement } from "./guard-rails";
import { baseProbe, probeAnswers, validationProbe, type BaseProbe, type Probe } from "./knowledge-probe";
import { accuracy, greedyReplies, heldOutPrompt, replyText, validationLoss, type HeldOutPrompt } from "./sft-evaluation";

/** Held-out prompts replied to (for val/accuracy and the guard rails), at most. */
const CHECKED_PROMPTS = 32;
/** Without validation examples, the guard rails read replies to this many training prompts. */
const TRAINING_PROMPTS = 4;
/** Replies shown on the job's page. */
const SHOWN_SAMPLES = 4;

export interface SftChecksOptions {
  /** How the model's conversations are rendered (TrainingVocabulary.format). */
  format: ChatFormat;
  /** The job's split, plan and rows, as encodeSftJob gives them. */
  encoded: Pick<EncodedSftJob, "plan" | "validation" | "trainExamples" | "validationExamples">;
  /** The base's own probe set, where it declares one (knowledge-probe.ts). */
  probe?: BaseProbe | null;
  /** Date.now() past which replies stop being generated (GenerationDeadlinePassed); none: no limit. */
  deadline?: number;
}

export class SftChecks {
  readonly prompts: HeldOutPrompt[];
  /** The prompts are validation examples' (else training examples'). */
  readonly heldOut: boolean;
  private readonly score: Scorer | null;
  /** What the starting weights knew, asked again at the end; `probeIsHeldOut`: its prompts are the held-out ones. */
  private readonly probe: Probe | null;
  private readonly probeIsHeldOut: boolean;

  constructor(private readonly o: SftChecksOptions) {
    const { format, encoded } = o;
    this.heldOut = encoded.validation.length > 0;
    const promptFrom = this.heldOut ? encoded.validationExamples.slice(0, CHECKED_PROMPTS) : encoded.trainExamples.slice(0, TRAINING_PROMPTS);
    this.prompts = promptFrom.map((example) => heldOutPrompt(format, example));
    this.score = encoded.plan.checker && this.heldOut ? compileChecker(encoded.plan.checker) : null;
    // The base's own set, else the validation prompts (with a checker, val/accuracy already compares them).
    this.probeIsHeldOut = !o.probe && this.heldOut && !this.score;
    this.probe = o.probe ? baseProbe(format, o.probe) : this.probeIsHeldOut ? validationProbe(this.prompts) : null;
  }

  /** val/accuracy of a model's replies, for each epoch's end; null without a checker. */
  checkedMetrics(model: LlamaModel, vocabulary: TrainingVocabulary): (() => Record<string, number>) | null {
    const score = this.score;
    return score && (() => ({ "val/accuracy": accuracy(score, this.prompts, this.replies(model, vocabulary)) }));
  }

  /** The weights in `model`: validation loss, accuracy, greedy replies, the probe's answers. */
  measure(model: LlamaModel, vocabulary: TrainingVocabulary): Measurement {
    const replies = this.replies(model, vocabulary);
    const probed = !this.probe ? null : this.probeIsHeldOut ? replies : greedyReplies(model, vocabulary, this.probe.prompts, this.o.deadline);
    return {
      loss: this.heldOut ? validationLoss(model, vocabulary.padId, this.o.encoded.validation.flat()) : NaN,
      accuracy: this.score ? accuracy(this.score, this.prompts, replies) : NaN,
      replies,
      probe: this.probe && probed && { right: probeAnswers(this.probe, probed), replies: probed.map(replyText) },
    };
  }

  /** The checks' metrics (probe/*, val/accuracy beside the start's) and the report: the guard
   *  rails' warnings and replies before/after. `trainLosses`: the job's gradient steps' losses. */
  report(before: Measurement, after: Measurement, trainLosses: readonly number[]): { metrics: Record<string, number>; report: JobReport } {
    const metrics: Record<string, number> = {};
    if (this.probe && before.probe && after.probe) {
      const share = (right: readonly boolean[]) => right.filter(Boolean).length / right.length;
      Object.assign(metrics, { "probe/correct": share(after.probe.right), "probe/base_correct": share(before.probe.right) });
    }
    if (this.score) Object.assign(metrics, { "val/accuracy": after.accuracy, "val/base_accuracy": before.accuracy });
    const probe = this.probe && { source: this.probe.source, questions: this.probe.prompts.map((p) => p.question) };
    const warnings = guardRailWarnings(before, after, trainLosses, this.heldOut, this.prompts.map((p) => p.expected), probe);
    const samples = this.prompts.slice(0, SHOWN_SAMPLES).map((prompt, i) => ({
      prompt: prompt.question,
      expected: prompt.expected,
      before: replyText(before.replies[i]),
      after: replyText(after.replies[i]),
      before_ended: before.replies[i].ended,
      after_ended: after.replies[i].ended,
      held_out: this.heldOut,
    }));
    return { metrics, report: { warnings, samples } };
  }

  private replies(model: LlamaModel, vocabulary: TrainingVocabulary) {
    return greedyReplies(model, vocabulary, this.prompts, this.o.deadline);
  }
}
