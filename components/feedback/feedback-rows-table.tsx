"use client";

import { MessageSquareText } from "lucide-react";
import Link from "next/link";
import { fullTime } from "@/components/feedback/format";
import { useFeedbackRows, type FeedbackStatsRow } from "@/components/feedback/queries";
import type { StatsSelection } from "@/components/feedback/stats-selection";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { LoadMoreFooter } from "@/components/ui/load-more-footer";
import { QueryError } from "@/components/ui/query-error";
import { TableSkeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { parseRef, RefError } from "@/lib/feedback/refs";

// The feedback rows the stats are computed from (same project, range, type and trigger), newest
// first: when, what type, each charted metric's value, the payload, and the call it judges.

/** The call a row is about, when its subject is a call ref. */
function callIdOf(row: FeedbackStatsRow): string | null {
  try {
    const ref = parseRef(row.svc_ref);
    return ref.kind === "call" ? ref.name : null;
  } catch (error) {
    if (error instanceof RefError) return null;
    throw error;
  }
}

const cell = (value: unknown) => (value === null || value === undefined ? "—" : typeof value === "object" ? JSON.stringify(value) : String(value));

function Row({ row, paths, timezone }: { row: FeedbackStatsRow; paths: string[]; timezone: string }) {
  const callId = callIdOf(row);
  const payload = JSON.stringify(row.payload);
  return (
    <Tr data-testid="feedback-stats-row" data-feedback-id={row.id}>
      <Td className="text-xs whitespace-nowrap text-zinc-600">
        <time dateTime={row.created_at}>{fullTime(row.created_at, timezone)}</time>
      </Td>
      <Td>
        <Badge>{row.feedback_type}</Badge>
      </Td>
      {paths.map((path) => (
        <Td key={path} className="font-mono text-xs text-zinc-900 tabular-nums">
          {cell(row[`payload.${path}`])}
        </Td>
      ))}
      <Td className="max-w-xs truncate font-mono text-[11px] text-zinc-600" title={payload}>
        {payload}
      </Td>
      <Td className="text-xs whitespace-nowrap">
        {callId ? (
          <Link href={`/calls/${callId}`} className="font-mono text-brand-700 hover:underline" aria-label={`Call ${callId}`}>
            {callId.slice(0, 8)}…
          </Link>
        ) : (
          <span className="block max-w-48 truncate font-mono text-[11px] text-zinc-500" title={row.svc_ref}>
            {row.svc_ref}
          </span>
        )}
      </Td>
    </Tr>
  );
}

export function FeedbackRowsTable({ selection, timezone }: { selection: StatsSelection; timezone: string }) {
  const rows = useFeedbackRows(selection);
  const paths = [...new Set(selection.metrics.map((m) => m.json_path))];
  if (rows.isPending) return <TableSkeleton label="Loading feedback" />;
  if (rows.isError) return <QueryError what="the feedback" error={rows.error} retry={() => void rows.refetch()} />;
  if (rows.data.length === 0) {
    return (
      <EmptyState icon={MessageSquareText} title="No feedback in this range">
        Feedback given on calls (thumbs, notes, scores) and sent to <code className="font-mono text-xs">/feedback/create</code> shows up here.
      </EmptyState>
    );
  }
  return (
    <>
      <Table label="Feedback rows">
        <THead>
          <Th>When</Th>
          <Th>Type</Th>
          {paths.map((path) => (
            <Th key={path} className="font-mono">
              {path}
            </Th>
          ))}
          <Th>Payload</Th>
          <Th>Subject</Th>
        </THead>
        <tbody>
          {rows.data.map((row) => (
            <Row key={row.id} row={row} paths={paths} timezone={timezone} />
          ))}
        </tbody>
      </Table>
      <LoadMoreFooter pages={rows} />
    </>
  );
}
