import type { CheckpointFeedbackRow } from "@/lib/training/models/checkpoint-feedback-schema";

// A model's feedback per checkpoint as the Models page compares it: newest step first, each number
// beside its change from the nearest older step that has one (so a new checkpoint is read against
// the last one that was judged), and one column per numeric annotation spec any step has.

export interface Compared {
  value: number;
  /** How many values `value` is of (an annotation's mean). */
  count?: number;
  /** value − the nearest older step's value, and that step; null when no older step has one. */
  change: { by: number; from: number } | null;
}

export interface ComparedStep {
  row: CheckpointFeedbackRow;
  thumbsUpRatio: Compared | null;
  means: Record<string, Compared | null>;
}

export function compareCheckpoints(rows: CheckpointFeedbackRow[]): { specs: string[]; steps: ComparedStep[] } {
  const specs = [...new Set(rows.flatMap((row) => row.annotations.map((a) => a.spec)))].sort();
  const ascending = [...rows].sort((a, b) => a.step - b.step);
  const last = new Map<string, { value: number; step: number }>();
  const compare = (key: string, step: number, value: number | null | undefined, count?: number): Compared | null => {
    if (value === null || value === undefined) return null;
    const before = last.get(key);
    last.set(key, { value, step });
    return { value, count, change: before ? { by: value - before.value, from: before.step } : null };
  };
  const steps = ascending.map((row) => ({
    row,
    thumbsUpRatio: compare("thumbs", row.step, row.thumbs_up_ratio),
    means: Object.fromEntries(
      specs.map((spec) => {
        const given = row.annotations.find((a) => a.spec === spec);
        return [spec, compare(`spec:${spec}`, row.step, given?.mean, given?.count)];
      }),
    ),
  }));
  return { specs, steps: steps.reverse() };
}
