"use client";

import Link from "next/link";
import { JobStatusBadge } from "@/components/jobs/job-status-badge";
import { ModelName } from "@/components/jobs/model-name";
import { useRlRuns } from "@/components/rl-runs/queries";
import { LoadMoreFooter } from "@/components/ui/load-more-footer";
import { Panel } from "@/components/ui/panel";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { shortJobId } from "@/lib/client/job-progress";

const reward = new Intl.NumberFormat("en", { maximumFractionDigits: 3 });

/** RL runs, newest first, on the Jobs page; hidden while there is none. */
export function RlRunsPanel({ modelId }: { modelId?: string }) {
  const runs = useRlRuns(modelId);
  if (!runs.data?.length) return null;
  return (
    <Panel title="RL runs" description="The server's own rollout → reward → RL job loop, one job per iteration.">
      <Table label="RL runs">
        <THead>
          <Th>Run</Th>
          <Th>Status</Th>
          <Th>Model</Th>
          <Th>Checker</Th>
          <Th className="text-right">Iterations</Th>
          <Th className="text-right">Reward first → last</Th>
          <Th>Created</Th>
        </THead>
        <tbody>
          {runs.data.map((run) => (
            <Tr key={run.id} data-testid="rl-run-row">
              <Td>
                <Link href={`/jobs/rl-runs/${run.id}`} className="font-mono text-[13px] text-brand-700 hover:underline" aria-label={`RL run ${run.id}`}>
                  {shortJobId(run.id)}
                </Link>
              </Td>
              <Td>
                <JobStatusBadge status={run.status} />
              </Td>
              <Td>
                <ModelName modelId={run.model_id} />
              </Td>
              <Td className="font-mono text-xs text-zinc-600">{String(run.checker.type)}</Td>
              <Td className="text-right tabular-nums">
                {run.iterations_done}
                <span className="text-zinc-400">/{run.iterations}</span>
              </Td>
              <Td className="text-right tabular-nums text-zinc-600">
                {run.history.length ? `${reward.format(run.history[0].reward_mean)} → ${reward.format(run.history.at(-1)!.reward_mean)}` : "—"}
              </Td>
              <Td className="text-zinc-500">
                <RelativeTime iso={run.created_at} />
              </Td>
            </Tr>
          ))}
        </tbody>
      </Table>
      <LoadMoreFooter pages={runs} />
    </Panel>
  );
}
