"use client";

import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Panel } from "@/components/ui/panel";
import { QueryError } from "@/components/ui/query-error";
import { TableSkeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { useQueueStats, type QueueStats } from "./queries";

// A queue's stats for the people running it: what each annotator has done, and how far
// annotations agree: exactly equal on items annotated more than once, and Krippendorff's α.

function AnnotatorTable({ stats }: { stats: QueueStats }) {
  if (stats.annotators.length === 0) return <p className="px-4 py-6 text-sm text-zinc-500">Nobody is assigned and nobody has annotated yet.</p>;
  return (
    <Table label="Progress per annotator">
      <THead>
        <Th>Annotator</Th>
        <Th className="text-right">Completed</Th>
        <Th className="text-right">Skipped</Th>
        <Th className="text-right">Working on</Th>
      </THead>
      <tbody>
        {stats.annotators.map((a) => (
          <Tr key={a.user_id} data-testid="annotator-row">
            <Td>
              <span className="font-medium text-zinc-900">{a.username}</span>
              {!a.assigned && (
                <span className="ml-2">
                  <Badge>not assigned</Badge>
                </span>
              )}
            </Td>
            <Td className="text-right tabular-nums">{a.completed}</Td>
            <Td className="text-right tabular-nums">{a.skipped}</Td>
            <Td className="text-right tabular-nums">{a.in_progress}</Td>
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}

const percent = (rate: number | null) => (rate === null ? "—" : `${Math.round(rate * 100)}%`);

function AgreementTable({ stats }: { stats: QueueStats }) {
  if (stats.annotations_per_item < 2 && stats.agreement.every((a) => a.items === 0)) {
    return <p className="px-4 py-6 text-sm text-zinc-500">Each item needs one annotation: agreement shows when items are annotated by more than one person.</p>;
  }
  return (
    <Table label="Agreement per spec">
      <THead>
        <Th>Spec</Th>
        <Th className="text-right">Items annotated twice or more</Th>
        <Th className="text-right">All equal</Th>
        <Th className="text-right">Agreement</Th>
        <Th className="text-right" title="Krippendorff's alpha: 1 perfect, 0 what chance gives, below 0 worse than chance">
          Krippendorff&apos;s α
        </Th>
      </THead>
      <tbody>
        {stats.agreement.map((a) => (
          <Tr key={a.spec}>
            <Td>
              <span className="font-medium text-zinc-900">{a.spec}</span> <span className="text-xs text-zinc-500">{a.type}</span>
            </Td>
            <Td className="text-right tabular-nums">{a.items}</Td>
            <Td className="text-right tabular-nums">{a.agreeing ?? "—"}</Td>
            <Td className="text-right tabular-nums" title={a.agreeing === null ? "Not measured for free text" : undefined}>
              {percent(a.rate)}
            </Td>
            <Td className="text-right tabular-nums" title={a.alpha_metric ? `${a.alpha_metric} metric` : "Not measured for free text"}>
              {a.alpha === null ? "—" : a.alpha.toFixed(3)}
              {a.alpha_metric && <span className="ml-1 text-xs text-zinc-400">{a.alpha_metric}</span>}
            </Td>
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}

export function QueueStatsPanels({ queueId }: { queueId: string }) {
  const stats = useQueueStats(queueId);
  const body = (render: (stats: QueueStats) => ReactNode, what: string) =>
    stats.isPending ? <TableSkeleton label={`Loading ${what}`} rows={2} /> : stats.isError ? <QueryError what={what} error={stats.error} retry={() => void stats.refetch()} /> : render(stats.data);
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Panel title="Annotators" description="Items each person completed or skipped, and the ones they hold now.">
        {body((s) => <AnnotatorTable stats={s} />, "the annotators' progress")}
      </Panel>
      <Panel title="Agreement" description="Exact agreement per spec over items annotated more than once, and Krippendorff's α (chance-corrected).">
        {body((s) => <AgreementTable stats={s} />, "the agreement")}
      </Panel>
    </div>
  );
}
