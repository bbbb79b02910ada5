// How several annotations of one call (or one choice) become one value: each annotator's newest
// row counts once (an edit replaces, it does not vote twice), then numbers are averaged and
// booleans and options go to the majority; an even split is a tie, which no rule passes.

export type ValueKind = "numeric" | "boolean" | "categorical";

export interface AnnotationRow {
  id: string;
  /** What is judged: the call (choice null) or one of its choices. */
  callId: string;
  choice: number | null;
  spec: string;
  value: unknown;
  userId: string;
  createdAt: Date;
}

export type Combined = { value: number | boolean | string } | { tie: true };

const newer = (a: AnnotationRow, b: AnnotationRow) => a.createdAt.getTime() > b.createdAt.getTime() || (a.createdAt.getTime() === b.createdAt.getTime() && a.id > b.id);

/** Each annotator's newest row per (call, choice, spec). */
export function latestPerAnnotator(rows: AnnotationRow[]): AnnotationRow[] {
  const latest = new Map<string, AnnotationRow>();
  for (const row of rows) {
    const key = `${row.callId}\n${row.choice ?? ""}\n${row.spec}\n${row.userId}`;
    const kept = latest.get(key);
    if (!kept || newer(row, kept)) latest.set(key, row);
  }
  return [...latest.values()];
}

/** The one value of a target's annotations: null when none has a value of the kind. */
export function combineValues(kind: ValueKind, values: unknown[]): Combined | null {
  if (kind === "numeric") {
    const numbers = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v));
    return numbers.length ? { value: numbers.reduce((a, b) => a + b, 0) / numbers.length } : null;
  }
  const votes = new Map<boolean | string, number>();
  for (const v of values) if (typeof v === (kind === "boolean" ? "boolean" : "string")) votes.set(v as boolean | string, (votes.get(v as boolean | string) ?? 0) + 1);
  if (votes.size === 0) return null;
  const ranked = [...votes.entries()].sort((a, b) => b[1] - a[1]);
  return ranked.length > 1 && ranked[0][1] === ranked[1][1] ? { tie: true } : { value: ranked[0][0] };
}

/** The newest of several corrected replies (annotators' latest each). */
export function newestText(rows: AnnotationRow[]): string | null {
  let best: AnnotationRow | null = null;
  for (const row of rows) if (typeof row.value === "string" && (!best || newer(row, best))) best = row;
  return best ? (best.value as string) : null;
}
