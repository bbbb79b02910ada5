"use client";

import { ListChecks } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { JobStatusBadge } from "@/components/jobs/job-status-badge";
import { ModelName } from "@/components/jobs/model-name";
import { useJobs, useRefreshOnFinish, type Job, type JobFilter } from "@/components/jobs/queries";
import { LoadMoreFooter } from "@/components/ui/load-more-footer";
import { EmptyState } from "@/components/ui/empty-state";
import { QueryError } from "@/components/ui/query-error";
import { RelativeTime } from "@/components/ui/relative-time";
import { TableSkeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { formatDuration, jobDurationMs, shortJobId } from "@/lib/client/job-progress";

/** Training jobs, newest first, with "load more"; refreshes itself while any is queued or running.
 *  `empty` says what to do when there is none; `showModel` false on a model's own page. */
export function JobsTable({ filter, empty, showModel = true }: { filter: JobFilter; empty: ReactNode; showModel?: boolean }) {
  const jobs = useJobs(filter);
  useRefreshOnFinish(jobs.data);
  if (jobs.isPending) return <TableSkeleton label="Loading jobs" />;
  if (jobs.isError) return <QueryError what="training jobs" error={jobs.error} retry={() => void jobs.refetch()} />;
  if (jobs.data.length === 0) return <EmptyState icon={ListChecks}>{empty}</EmptyState>;
  const now = Date.now();
  return (
    <>
      <Table label="Training jobs">
        <THead>
          <Th>Job</Th>
          <Th>Status</Th>
          {showModel && <Th>Model</Th>}
          <Th>Kind</Th>
          <Th>Created</Th>
          <Th className="text-right">Duration</Th>
          <Th className="text-right">Steps</Th>
        </THead>
        <tbody>
          {jobs.data.map((job) => (
            <JobRow key={job.id} job={job} showModel={showModel} now={now} />
          ))}
        </tbody>
      </Table>
      <LoadMoreFooter pages={jobs} />
    </>
  );
}

function JobRow({ job, showModel, now }: { job: Job; showModel: boolean; now: number }) {
  const duration = jobDurationMs(job, now);
  return (
    <Tr data-testid="job-row" data-job-id={job.id}>
      <Td>
        <Link href={`/jobs/${job.id}`} className="font-mono text-[13px] text-brand-700 hover:underline" aria-label={`Job ${job.id}`}>
          {shortJobId(job.id)}
        </Link>
      </Td>
      <Td>
        <JobStatusBadge status={job.status} />
      </Td>
      {showModel && (
        <Td>
          <ModelName modelId={job.model_id} />
        </Td>
      )}
      <Td className="uppercase text-xs font-medium text-zinc-600">{job.kind}</Td>
      <Td className="text-zinc-500">
        <RelativeTime iso={job.created_at} />
      </Td>
      <Td className="text-right tabular-nums text-zinc-600">{duration === null ? <span className="text-zinc-400">—</span> : formatDuration(duration)}</Td>
      <Td className="text-right tabular-nums">
        {job.steps_done}
        <span className="text-zinc-400">/{job.num_sequences ?? "?"}</span>
      </Td>
    </Tr>
  );
}
