"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { modelKeys } from "@/components/models/queries";
import { Panel } from "@/components/ui/panel";
import { QueryError } from "@/components/ui/query-error";
import { TableSkeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { apiFetch } from "@/lib/client/api-fetch";
import { compareCheckpoints, type Compared } from "@/lib/client/checkpoint-feedback";
import type { CheckpointFeedback } from "@/lib/training/models/checkpoint-feedback-schema";

// What people said about each checkpoint's answers, side by side: the calls it served, how many
// were judged, thumbs, and the mean of each numeric annotation spec, each with its change from the
// last older step that had one — so a new checkpoint is read against the one before it.

const feedbackKey = (modelId: string) => [...modelKeys.detail(modelId), "feedback-by-checkpoint"] as const;

export function useCheckpointFeedback(modelId: string) {
  return useQuery({
    queryKey: feedbackKey(modelId),
    queryFn: ({ signal }) => apiFetch<CheckpointFeedback>(`/v1/preview/models/${encodeURIComponent(modelId)}/feedback-by-checkpoint`, { signal }),
    select: (data) => compareCheckpoints(data.data),
  });
}

const signed = (n: number, digits: number) => `${n > 0 ? "+" : n < 0 ? "−" : "±"}${Math.abs(n).toFixed(digits)}`;

function Change({ change, digits, unit = "" }: { change: Compared["change"]; digits: number; unit?: string }) {
  if (!change) return null;
  const tone = change.by > 0 ? "text-emerald-700" : change.by < 0 ? "text-red-700" : "text-zinc-500";
  return (
    <span className={`ml-1.5 text-[11px] ${tone}`} title={`Change from step ${change.from}`}>
      {signed(change.by, digits)}
      {unit} vs {change.from}
    </span>
  );
}

function Ratio({ ratio, up, down }: { ratio: Compared | null; up: number; down: number }) {
  if (!ratio) return <span className="text-zinc-400">—</span>;
  return (
    <span className="whitespace-nowrap tabular-nums">
      {Math.round(ratio.value * 100)}% <span className="text-xs text-zinc-500">({up} 👍 · {down} 👎)</span>
      <Change change={ratio.change && { ...ratio.change, by: ratio.change.by * 100 }} digits={0} unit=" pts" />
    </span>
  );
}

function Mean({ mean }: { mean: Compared | null }) {
  if (!mean) return <span className="text-zinc-400">—</span>;
  return (
    <span className="whitespace-nowrap tabular-nums">
      {mean.value.toFixed(2)} <span className="text-xs text-zinc-500">(n={mean.count})</span>
      <Change change={mean.change} digits={2} />
    </span>
  );
}

export function CheckpointFeedbackPanel({ modelId }: { modelId: string }) {
  const feedback = useCheckpointFeedback(modelId);
  return (
    <Panel title="Human feedback per checkpoint" description="The calls each checkpoint served and what people said about them; changes are from the last older step with a value.">
      {feedback.isPending ? (
        <TableSkeleton label="Loading feedback per checkpoint" />
      ) : feedback.isError ? (
        <QueryError what="feedback per checkpoint" error={feedback.error} retry={() => void feedback.refetch()} />
      ) : feedback.data.steps.length === 0 ? (
        <p className="px-4 py-6 text-sm text-zinc-500">No checkpoint has served a call yet.</p>
      ) : (
        <Table label="Human feedback per checkpoint">
          <THead>
            <Th>Step</Th>
            <Th className="text-right">Calls</Th>
            <Th className="text-right">Judged</Th>
            <Th className="text-right">Feedback</Th>
            <Th>Thumbs up</Th>
            {feedback.data.specs.map((spec) => (
              <Th key={spec}>
                <span className="font-mono">{spec}</span> mean
              </Th>
            ))}
          </THead>
          <tbody>
            {feedback.data.steps.map(({ row, thumbsUpRatio, means }) => (
              <Tr key={row.step} data-testid="checkpoint-feedback-row" data-step={row.step}>
                <Td className="font-medium whitespace-nowrap tabular-nums text-zinc-900">
                  {row.step}
                  {row.step === 0 ? <span className="ml-1.5 text-xs font-normal text-zinc-500">base</span> : !row.checkpoint_exists && <span className="ml-1.5 text-xs font-normal text-zinc-500">deleted</span>}
                </Td>
                <Td className="text-right tabular-nums">
                  {row.calls > 0 ? (
                    <Link href={`/calls?model=${encodeURIComponent(row.served_as)}`} className="text-brand-700 hover:underline" aria-label={`${row.calls} calls served by step ${row.step}`}>
                      {row.calls}
                    </Link>
                  ) : (
                    0
                  )}
                </Td>
                <Td className="text-right tabular-nums">{row.judged_calls}</Td>
                <Td className="text-right tabular-nums">{row.feedback}</Td>
                <Td>
                  <Ratio ratio={thumbsUpRatio} up={row.thumbs_up} down={row.thumbs_down} />
                </Td>
                {feedback.data.specs.map((spec) => (
                  <Td key={spec}>
                    <Mean mean={means[spec]} />
                  </Td>
                ))}
              </Tr>
            ))}
          </tbody>
        </Table>
      )}
    </Panel>
  );
}
