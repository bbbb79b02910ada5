// Which parts of a stats request the aggregate cells answer and which need raw rows. Cells span UTC
// 15 minutes and hours (migration feedback_stat_cells): each bucket, clipped to [start, end), is
// covered by the largest cells that fit inside it, and what no 15-minute cell fits (an unaligned
// start or end, a bucket edge off the 15-minute grid: a zone or date whose offset is not a multiple
// of 15 minutes, a granularity that is not one) is read from the rows. Cells of one level that
// follow each other, within a bucket or across buckets, are read as one range. A cell lies inside
// one bucket, so its start places it, as a row's created_at does.

export const CELL_LEVELS_SECONDS = [3600, 900] as const;
const FINEST_MS = 900_000;
/** A metric's json_path deeper than this is not aggregated (feedback_stat_leaves walks 16 keys deep). */
export const MAX_AGGREGATED_DEPTH = 16;
/** Cells answer a request only while the rows they leave to read span at most this share of it:
 *  past it, folding rows one by one costs more than the raw statement's one pass. */
export const MAX_RAW_SHARE = 0.1;

export interface Span {
  from: number;
  to: number;
}

export interface CellCover {
  /** Ranges of cell starts per level (seconds), epoch ms, half-open. */
  cells: (Span & { level: number })[];
  /** Ranges of created_at read from the rows, epoch ms, half-open. */
  raw: Span[];
}

const floorTo = (t: number, step: number) => t - (((t % step) + step) % step);

/** Adds [from, to) to a list of ranges, joined to the last one when they touch. */
function append(spans: Span[], from: number, to: number) {
  const last = spans.at(-1);
  if (last && last.to === from) last.to = to;
  else spans.push({ from, to });
}

/** The cover of buckets starting at `starts` (ascending, the first at or before `startMs`) over [startMs, endMs). */
export function cellCover(starts: number[], startMs: number, endMs: number): CellCover {
  const byLevel = new Map<number, Span[]>(CELL_LEVELS_SECONDS.map((level) => [level, []]));
  const raw: Span[] = [];
  starts.forEach((bucketStart, b) => {
    const from = Math.max(startMs, bucketStart);
    const to = Math.min(endMs, starts[b + 1] ?? endMs);
    const first = floorTo(from + FINEST_MS - 1, FINEST_MS);
    const last = floorTo(to, FINEST_MS);
    if (first >= last) {
      append(raw, from, to);
      return;
    }
    if (from < first) append(raw, from, first);
    for (let t = first; t < last; ) {
      const level = CELL_LEVELS_SECONDS.find((l) => floorTo(t, l * 1000) === t && t + l * 1000 <= last)!;
      append(byLevel.get(level)!, t, t + level * 1000);
      t += level * 1000;
    }
    if (last < to) append(raw, last, to);
  });
  return { cells: [...byLevel].flatMap(([level, spans]) => spans.map((s) => ({ level, ...s }))), raw };
}

/** Whether the cells are worth reading: they cover something, and the rows left over are few. */
export function cellsAnswer(cover: CellCover, startMs: number, endMs: number): boolean {
  const rawMs = cover.raw.reduce((sum, s) => sum + s.to - s.from, 0);
  return cover.cells.length > 0 && rawMs <= MAX_RAW_SHARE * (endMs - startMs);
}
