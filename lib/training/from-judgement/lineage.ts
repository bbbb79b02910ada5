// What a build records about itself: why calls were left out, and the lineage a job keeps (the
// queue, whether of its accepted items only, or filter, the rule, the feedback it was built from).
import { ANNOTATION_PREFIX } from "@/lib/feedback/kinds";
import type { AnnotationRow } from "./combine-annotations";
import type { JudgedCalls } from "./judged-calls";
import { LEFT_OUT_REASONS, type JudgementSource, type LeftOut, type LeftOutReason, type ResolvedRule } from "./schemas";

const SAMPLE_CALLS = 20;
const SAMPLE_FEEDBACK = 100;

/** Calls left out, counted per reason, in the order reasons first occur. */
export class LeftOutTally {
  private readonly reasons = new Map<LeftOutReason, LeftOut>();

  add(reason: LeftOutReason, callId: string): void {
    const entry = this.reasons.get(reason) ?? { reason, message: LEFT_OUT_REASONS[reason], count: 0, call_ids: [] };
    entry.count += 1;
    if (entry.call_ids.length < SAMPLE_CALLS) entry.call_ids.push(callId);
    this.reasons.set(reason, entry);
  }

  list(): LeftOut[] {
    return [...this.reasons.values()];
  }
}

interface Built {
  kind: JudgementSource["kind"];
  rule?: ResolvedRule | null;
  correctedReplySpec?: string | null;
  rewardSpec?: string | null;
  specs: string[];
  /** The annotations of the calls that were used. */
  feedback: AnnotationRow[];
  counts: Record<string, number>;
  leftOut: LeftOut[];
}

export function judgementSource(calls: JudgedCalls, built: Built): JudgementSource {
  return {
    kind: built.kind,
    project: calls.project,
    queue: calls.queue,
    accepted_only: calls.acceptedOnly,
    filter: calls.filter,
    rule: built.rule ?? null,
    corrected_reply_spec: built.correctedReplySpec ?? null,
    reward_spec: built.rewardSpec ?? null,
    feedback: {
      count: built.feedback.length,
      types: built.specs.map((spec) => ANNOTATION_PREFIX + spec),
      ids_sample: built.feedback.slice(0, SAMPLE_FEEDBACK).map((row) => row.id),
    },
    counts: built.counts,
    left_out: built.leftOut,
    built_at: new Date().toISOString(),
  };
}
