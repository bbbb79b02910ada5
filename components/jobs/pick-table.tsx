"use client";

import { useState, type ReactNode } from "react";
import { LoadMoreFooter, type NextPages } from "@/components/ui/load-more-footer";
import { QueryError } from "@/components/ui/query-error";
import { TableSkeleton } from "@/components/ui/skeleton";

// The Train dialog's pickers (recorded calls, trajectory groups): rows of a paged list, picked
// one by one or all shown at once; picks survive filtering and paging.

/** The rows picked so far, by id. */
export function usePicked<T extends { id: string }>() {
  const [picked, setPicked] = useState<Map<string, T>>(new Map());
  function toggle(row: T, on: boolean) {
    setPicked((current) => {
      const next = new Map(current);
      if (on) next.set(row.id, row);
      else next.delete(row.id);
      return next;
    });
  }
  return { picked, toggle };
}

interface PickTableProps<T extends { id: string }> {
  query: NextPages & { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  /** The rows shown (the query's data, maybe filtered). */
  rows: T[];
  picking: ReturnType<typeof usePicked<T>>;
  /** The table's accessible name, e.g. "Recorded calls". */
  label: string;
  /** One row, for the checkboxes' names: "Pick call …", "Pick every call shown". */
  noun: string;
  /** For "Loading …" and "Could not load …". */
  loading: string;
  what: string;
  /** What to say when there are no rows. */
  empty: ReactNode;
  /** The header cells after the pick column, and a row's cells. */
  head: ReactNode;
  cells: (row: T) => ReactNode;
}

export function PickTable<T extends { id: string }>({ query, rows, picking, label, noun, loading, what, empty, head, cells }: PickTableProps<T>) {
  const { picked, toggle } = picking;
  const allShownPicked = rows.length > 0 && rows.every((row) => picked.has(row.id));
  return (
    <div className="max-h-64 overflow-y-auto rounded-lg border border-zinc-200">
      {query.isPending ? (
        <TableSkeleton label={loading} />
      ) : query.isError ? (
        <QueryError what={what} error={query.error} retry={() => void query.refetch()} />
      ) : rows.length === 0 ? (
        <p className="px-4 py-6 text-center text-sm text-zinc-500">{empty}</p>
      ) : (
        <table aria-label={label} className="w-full text-left text-sm text-zinc-700">
          <thead className="sticky top-0 bg-zinc-50 text-xs text-zinc-500">
            <tr>
              <th className="w-8 px-3 py-2">
                <input type="checkbox" aria-label={`Pick every ${noun} shown`} checked={allShownPicked} onChange={(e) => rows.forEach((row) => toggle(row, e.target.checked))} className="accent-brand-600" />
              </th>
              {head}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} className="border-t border-zinc-100 hover:bg-zinc-50/60">
                <td className="px-3 py-2">
                  <input type="checkbox" aria-label={`Pick ${noun} ${row.id}`} checked={picked.has(row.id)} onChange={(e) => toggle(row, e.target.checked)} className="accent-brand-600" />
                </td>
                {cells(row)}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <LoadMoreFooter pages={query} compact />
    </div>
  );
}
