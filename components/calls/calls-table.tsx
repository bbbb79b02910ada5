"use client";

import { ScrollText } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { CallStatusBadge } from "@/components/calls/call-status-badge";
import { FeedbackSummaryCell } from "@/components/calls/feedback-summary";
import { formatLatency } from "@/components/calls/format";
import { useCallLog, type CallListItem, type CallLogFilter } from "@/components/calls/queries";
import { EmptyState } from "@/components/ui/empty-state";
import { LoadMoreFooter } from "@/components/ui/load-more-footer";
import { QueryError } from "@/components/ui/query-error";
import { RelativeTime } from "@/components/ui/relative-time";
import { TableSkeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";

// The call log as a table, newest first, with "load more": what was asked and answered (previews),
// the model, status, latency, tokens, feedback, and when. A row opens the call. With `selection`,
// a first column of checkboxes picks calls (e.g. to add them to an annotation queue).

/** Which calls are picked, and how the table changes that. */
export interface CallSelection {
  selected: ReadonlySet<string>;
  onChange: (ids: string[], picked: boolean) => void;
}

function SelectCell({ call, selection }: { call: CallListItem; selection: CallSelection }) {
  return (
    <Td className="w-8 pr-0">
      <input
        type="checkbox"
        className="size-4 accent-brand-600"
        aria-label={`Select call ${call.id}`}
        checked={selection.selected.has(call.id)}
        onChange={(event) => selection.onChange([call.id], event.target.checked)}
      />
    </Td>
  );
}

function CallRow({ call, showProject, selection }: { call: CallListItem; showProject: boolean; selection?: CallSelection }) {
  return (
    <Tr data-testid="call-row" data-call-id={call.id}>
      {selection && <SelectCell call={call} selection={selection} />}
      <Td className="max-w-md">
        <Link href={`/calls/${call.id}`} className="block rounded focus-visible:outline-2 focus-visible:outline-brand-600" aria-label={`Call ${call.id}`}>
          <p className="truncate text-zinc-900">{call.preview.input ?? <span className="text-zinc-400">(no message)</span>}</p>
          <p className="truncate text-xs text-zinc-500">→ {call.preview.output ?? <span className="italic">{call.status === "success" ? "(no text)" : (call.error ?? call.status)}</span>}</p>
        </Link>
      </Td>
      {showProject && <Td className="text-xs whitespace-nowrap text-zinc-600">{call.project}</Td>}
      <Td className="max-w-40 truncate font-mono text-[11px] text-zinc-600">{call.model}</Td>
      <Td>
        <CallStatusBadge status={call.status} />
      </Td>
      <Td className="text-right text-xs whitespace-nowrap text-zinc-600 tabular-nums">{formatLatency(call.latency_ms)}</Td>
      <Td className="text-right text-xs text-zinc-600 tabular-nums" title={`${call.usage.prompt_tokens} prompt + ${call.usage.completion_tokens} completion`}>
        {call.usage.total_tokens}
      </Td>
      <Td>
        <FeedbackSummaryCell summary={call.feedback} />
      </Td>
      <Td className="text-xs whitespace-nowrap text-zinc-500">
        <RelativeTime iso={call.created_at} />
      </Td>
    </Tr>
  );
}

export function CallsTable({ filter, empty, selection }: { filter: CallLogFilter; empty: ReactNode; selection?: CallSelection }) {
  const calls = useCallLog(filter);
  if (calls.isPending) return <TableSkeleton label="Loading calls" />;
  if (calls.isError) return <QueryError what="the calls" error={calls.error} retry={() => void calls.refetch()} />;
  if (calls.data.length === 0) return <EmptyState icon={ScrollText}>{empty}</EmptyState>;
  const showProject = !filter.project;
  const shownIds = calls.data.map((call) => call.id);
  return (
    <>
      <Table label="Calls">
        <THead>
          {selection && (
            <Th className="w-8 pr-0">
              <input
                type="checkbox"
                className="size-4 accent-brand-600"
                aria-label="Select all shown calls"
                checked={shownIds.every((id) => selection.selected.has(id))}
                onChange={(event) => selection.onChange(shownIds, event.target.checked)}
              />
            </Th>
          )}
          <Th>Conversation</Th>
          {showProject && <Th>Project</Th>}
          <Th>Model</Th>
          <Th>Status</Th>
          <Th className="text-right">Latency</Th>
          <Th className="text-right">Tokens</Th>
          <Th>Feedback</Th>
          <Th>When</Th>
        </THead>
        <tbody>
          {calls.data.map((call) => (
            <CallRow key={call.id} call={call} showProject={showProject} selection={selection} />
          ))}
        </tbody>
      </Table>
      <LoadMoreFooter pages={calls} />
    </>
  );
}
