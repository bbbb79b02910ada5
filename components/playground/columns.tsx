// The playground's two columns: A (always) and B (while comparing), each with its own model and
// parameters, told apart by a letter and a colour everywhere they appear.

export type ColumnIndex = 0 | 1;

export const COLUMNS = [
  { label: "A", badge: "bg-brand-600 text-white", tab: "data-[on=true]:bg-brand-600" },
  { label: "B", badge: "bg-violet-600 text-white", tab: "data-[on=true]:bg-violet-600" },
] as const;

export const BOTH_COLUMNS: readonly ColumnIndex[] = [0, 1];

export function ColumnBadge({ index }: { index: ColumnIndex }) {
  return <span className={`inline-flex size-5 items-center justify-center rounded text-[11px] font-bold ${COLUMNS[index].badge}`}>{COLUMNS[index].label}</span>;
}
