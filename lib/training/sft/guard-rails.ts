// Guard rails of an SFT job: the signs that its checkpoint is worse than the weights it started
// from, read at the end of the job. The job still succeeds (its checkpoint is written and servable);
// these become its `warnings`, shown with a few replies before and after, so a person looks before
// serving it. Compared with the start, not in absolute terms: a model that already loops on some
// prompt is not flagged for it again.
import { degenerationShares, type Degeneration, type SampledReply } from "./degeneration";

export interface JobWarning {
  code: string;
  message: string;
}

export interface Measurement {
  /** Validation loss (NaN without validation examples). */
  loss: number;
  /** Share of checked held-out replies that pass (NaN without a checker). */
  accuracy: number;
  /** Greedy replies to the held-out prompts (the same prompts before and after). */
  replies: readonly SampledReply[];
  /** The knowledge probe's replies (knowledge-probe.ts), each right or not; null when nothing is probed. */
  probe: { right: readonly boolean[]; replies: readonly string[] } | null;
}

/** What the knowledge probe asked: its source in words, and its prompts' questions. */
export interface ProbeContext {
  source: string;
  questions: readonly string[];
}

/** Share of the most common of some texts (1 when all are the same). */
export function commonestShare(texts: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const t of texts) counts.set(t, (counts.get(t) ?? 0) + 1);
  return texts.length ? Math.max(...counts.values()) / texts.length : 0;
}

/** A loss this many times the start's is "far worse". */
const LOSS_FACTOR = 1.1;
/** A drop in val/accuracy of this much or more (a share) is flagged. */
const ACCURACY_DROP = 0.1;
/** A fall in the probe's correct answers of this much or more (a share) is flagged. */
const KNOWLEDGE_DROP = 0.1;
/** A degeneration is flagged when at least this share of replies shows it, this much more than before. */
const DEGENERATE_SHARE = 0.25;
const DEGENERATE_RISE = 0.25;
/** Replies collapse when this share of them (of at least 4) is one text while the expected replies differ. */
const SAME_REPLY_SHARE = 0.75;
const SAME_REPLY_MIN = 4;

const DEGENERATION_TEXT: Record<Degeneration, string> = {
  repetition: "loop (most of the reply repeats one stretch of tokens)",
  invalid_text: "are not valid text (broken UTF-8 or control characters)",
  never_ends_turn: "never end the turn (no end-of-turn token within the reply limit)",
};

const f = (x: number) => x.toFixed(3);
const pct = (x: number) => `${Math.round(x * 100)}%`;
const quoted = (text: string) => JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
const shareRight = (right: readonly boolean[]) => right.filter(Boolean).length / right.length;

/** Mean of the first and of the last quarter of the steps' losses (1 to 5 steps each). */
export function lossTrend(losses: readonly number[]): { first: number; last: number } | null {
  const finite = losses.filter(Number.isFinite);
  if (finite.length < 2) return null;
  const k = Math.max(1, Math.min(5, Math.floor(finite.length / 4)));
  const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return { first: mean(finite.slice(0, k)), last: mean(finite.slice(-k)) };
}

/** `expected`: the examples' own replies to the same prompts (a job that teaches one reply to
 *  every prompt is not collapsing). */
export function guardRailWarnings(
  before: Measurement, after: Measurement, trainLosses: readonly number[], heldOut: boolean, expected: readonly string[], probe: ProbeContext | null = null,
): JobWarning[] {
  const warnings: JobWarning[] = [];
  const dropped = probe && knowledgeDropped(probe, before, after);
  if (dropped) warnings.push(dropped);
  if (Number.isFinite(before.loss) && !(after.loss <= before.loss * LOSS_FACTOR)) {
    warnings.push({ code: "validation_loss_worse", message: `Validation loss ${f(after.loss)} is far worse than the starting weights' ${f(before.loss)}: the checkpoint fits held-out examples worse than before training.` });
  }
  const trend = lossTrend(trainLosses);
  if (trend && !(trend.last <= trend.first * LOSS_FACTOR)) {
    warnings.push({ code: "training_loss_rose", message: `Training loss rose from ${f(trend.first)} (first steps) to ${f(trend.last)} (last steps): the learning rate is likely too high for this data.` });
  }
  if (Number.isFinite(before.accuracy) && after.accuracy <= before.accuracy - ACCURACY_DROP) {
    warnings.push({ code: "validation_accuracy_dropped", message: `Held-out accuracy fell from ${pct(before.accuracy)} to ${pct(after.accuracy)} of replies passing the checker.` });
  }
  const [was, now] = [degenerationShares(before.replies), degenerationShares(after.replies)];
  const n = after.replies.length;
  const prompts = heldOut ? "held-out prompts" : "training prompts (the job has no validation examples)";
  for (const kind of Object.keys(now) as Degeneration[]) {
    if (now[kind] >= DEGENERATE_SHARE && now[kind] >= was[kind] + DEGENERATE_RISE) {
      warnings.push({ code: kind, message: `${Math.round(now[kind] * n)} of ${n} greedy replies to ${prompts} ${DEGENERATION_TEXT[kind]}, against ${Math.round(was[kind] * n)} before training.` });
    }
  }
  const texts = after.replies.map((r) => new TextDecoder().decode(r.bytes).trim());
  if (texts.length >= SAME_REPLY_MIN && commonestShare(texts) >= SAME_REPLY_SHARE && commonestShare(expected.map((e) => e.trim())) < SAME_REPLY_SHARE) {
    warnings.push({ code: "same_reply", message: `${Math.round(commonestShare(texts) * n)} of ${n} greedy replies to different ${prompts} are the same text, though their expected replies differ: the model answers every prompt alike.` });
  }
  return warnings;
}

/** The probe's correct answers fell by KNOWLEDGE_DROP or more: said in plain words, with one prompt
 *  the starting weights answered right and the checkpoint does not. */
function knowledgeDropped(probe: ProbeContext, before: Measurement, after: Measurement): JobWarning | null {
  if (!before.probe || !after.probe || before.probe.right.length === 0) return null;
  const [was, now] = [before.probe.right, after.probe.right];
  if (!(shareRight(now) <= shareRight(was) - KNOWLEDGE_DROP)) return null;
  const n = was.length;
  const lost = was.findIndex((right, i) => right && !now[i]);
  const example = lost < 0 ? "" : ` For example ${quoted(probe.questions[lost])}: ${quoted(before.probe.replies[lost])} before, ${quoted(after.probe.replies[lost])} after.`;
  return {
    code: "correct_answers_dropped",
    message: `Correct answers fell from ${pct(shareRight(was))} to ${pct(shareRight(now))} on ${probe.source}: the starting weights answered ${was.filter(Boolean).length} of ${n} right, the checkpoint ${now.filter(Boolean).length}. Training has undone part of what the model knew.${example}`,
  };
}
