"use client";

import Link from "next/link";
import { useState } from "react";
import { useCheckpointJobs, type CheckpointJob } from "@/components/models/checkpoint-jobs";
import { CheckpointDownloadMenu } from "@/components/models/checkpoint-download-menu";
import { CheckpointWarnings } from "@/components/models/checkpoint-warnings";
import { DeleteCheckpointsDialog } from "@/components/models/delete-checkpoints-dialog";
import { MetricValues } from "@/components/models/metric-values";
import { inferenceName, OpenInPlayground } from "@/components/models/playground-link";
import { useCheckpoints, type Checkpoint, type TrainedModel } from "@/components/models/queries";
import { LoadMoreFooter } from "@/components/ui/load-more-footer";
import { Panel } from "@/components/ui/panel";
import { QueryError } from "@/components/ui/query-error";
import { RelativeTime } from "@/components/ui/relative-time";
import { TableSkeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, ThActions, THead, Tr } from "@/components/ui/table";
import { shortJobId } from "@/lib/client/job-progress";
import { checkpointMetricLabel } from "@/lib/client/learning-curve";

/** The model's checkpoints, newest first ("load more"), each servable by name; step 0 (the base
 *  model) closes the list. Select some to delete them. */
export function CheckpointsPanel({ model }: { model: TrainedModel }) {
  const checkpoints = useCheckpoints(model.id);
  const jobs = useCheckpointJobs(model.id);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const toggle = (step: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(step)) next.add(step);
      return next;
    });

  return (
    <Panel
      title="Checkpoints"
      description="One per finished training job. Chat with any of them by name, or delete old ones to free disk space."
      actions={<DeleteCheckpointsDialog modelId={model.id} steps={[...selected]} onDeleted={() => setSelected(new Set())} />}
    >
      {checkpoints.isPending ? (
        <TableSkeleton label="Loading checkpoints" />
      ) : checkpoints.isError ? (
        <QueryError what="checkpoints" error={checkpoints.error} retry={() => void checkpoints.refetch()} />
      ) : (
        <>
          <Table label="Checkpoints">
            <THead>
              <Th className="w-8">
                <span className="sr-only">Select</span>
              </Th>
              <Th>Step</Th>
              <Th>Metrics</Th>
              <Th>Created</Th>
              <Th>Job</Th>
              <ThActions />
            </THead>
            <tbody>
              {checkpoints.data.map((checkpoint) => (
                <CheckpointRow key={checkpoint.id} model={model} checkpoint={checkpoint} job={jobs.get(checkpoint.step)} selected={selected.has(checkpoint.step)} onToggle={() => toggle(checkpoint.step)} />
              ))}
              {!checkpoints.hasNextPage && (
                <Tr data-testid="checkpoint-step-0">
                  <Td />
                  <Td className="font-medium tabular-nums">0</Td>
                  <Td className="text-zinc-500">
                    The base model <span className="font-mono text-xs">{model.base_model}</span>, before any training
                    {checkpoints.data.length === 0 && " — no checkpoint yet: a finished training job writes step 1"}
                  </Td>
                  <Td className="text-zinc-500">
                    <RelativeTime iso={model.created_at} />
                  </Td>
                  <Td />
                  <Td className="text-right">
                    <OpenInPlayground model={inferenceName(model, 0)} label="Open in playground" compact />
                  </Td>
                </Tr>
              )}
            </tbody>
          </Table>
          <LoadMoreFooter pages={checkpoints} />
        </>
      )}
    </Panel>
  );
}

function CheckpointRow({ model, checkpoint, job, selected, onToggle }: { model: TrainedModel; checkpoint: Checkpoint; job: CheckpointJob | undefined; selected: boolean; onToggle: () => void }) {
  return (
    <Tr className={selected ? "bg-brand-50/40" : ""}>
      <Td>
        <input
          type="checkbox"
          aria-label={`Select step ${checkpoint.step}`}
          checked={selected}
          onChange={onToggle}
          className="size-3.5 rounded border-zinc-300 accent-brand-600"
        />
      </Td>
      <Td className="font-medium tabular-nums text-zinc-900">{checkpoint.step}</Td>
      <Td>
        <MetricValues metrics={checkpoint.metrics} label={(key) => checkpointMetricLabel(key, checkpoint.metrics)} />
        {job && <CheckpointWarnings warnings={job.warnings} />}
      </Td>
      <Td className="text-zinc-500">
        <RelativeTime iso={checkpoint.created_at} />
      </Td>
      <Td className="font-mono text-xs">
        {job ? (
          <Link href={`/jobs/${job.id}`} className="text-brand-700 hover:underline" aria-label={`Job that wrote step ${checkpoint.step}`}>
            {shortJobId(job.id)}
          </Link>
        ) : (
          <span className="text-zinc-400">—</span>
        )}
      </Td>
      <Td className="text-right">
        <div className="inline-flex items-center gap-1.5">
          <OpenInPlayground model={inferenceName(model, checkpoint.step)} label="Open in playground" compact />
          <CheckpointDownloadMenu model={model} step={checkpoint.step} />
        </div>
      </Td>
    </Tr>
  );
}
