"use client";

import { Columns2, MessageSquare } from "lucide-react";
import Link from "next/link";
import { useMemo } from "react";
import { StepChart } from "@/components/jobs/job-charts";
import { JobEventsTable } from "@/components/jobs/job-events-table";
import { JobLineage } from "@/components/jobs/job-lineage";
import { JobProgress } from "@/components/jobs/job-progress";
import { JobRuns } from "@/components/jobs/job-runs";
import { JobWarnings, SampleReplies } from "@/components/jobs/job-report";
import { ServedLogRatio } from "@/components/jobs/served-log-ratio";
import { JobStatusBadge } from "@/components/jobs/job-status-badge";
import { ModelName } from "@/components/jobs/model-name";
import { isLive, useCancelJob, useJob, useJobEvents, useRefreshOnFinish, type Job } from "@/components/jobs/queries";
import { inferenceName, playgroundHref } from "@/components/models/playground-link";
import { useTrainedModel } from "@/components/models/queries";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CancelButton } from "@/components/ui/cancel-button";
import { DetailHeader, DetailLoadError, DetailSkeleton, Fact } from "@/components/ui/detail-page";
import { Panel } from "@/components/ui/panel";
import { QueryError } from "@/components/ui/query-error";
import { RelativeTime } from "@/components/ui/relative-time";
import { Skeleton } from "@/components/ui/skeleton";
import { chartedMetrics, gradientSteps, shortJobId } from "@/lib/client/job-progress";

// /jobs/{id}: a job's status and progress, live charts of its gradient steps, its config and
// input, the event log, Cancel while it runs, and its checkpoint in the playground once done.

/** The new checkpoint in the playground, alone or side by side with the base model. */
function CheckpointLinks({ job }: { job: Job }) {
  const model = useTrainedModel(job.model_id);
  if (job.status !== "succeeded" || job.checkpoint_step === null || !model.data) return null;
  const checkpoint = inferenceName(model.data, job.checkpoint_step);
  const compare = `${playgroundHref(checkpoint)}&compare=${encodeURIComponent(model.data.base_model)}`;
  return (
    <>
      <Button asChild size="sm">
        <Link href={playgroundHref(checkpoint)}>
          <MessageSquare /> Open step {job.checkpoint_step} in playground
        </Link>
      </Button>
      <Button asChild variant="secondary" size="sm">
        <Link href={compare} title={`${checkpoint} beside ${model.data.base_model}`}>
          <Columns2 /> Compare with base
        </Link>
      </Button>
    </>
  );
}

export function JobMonitor({ jobId }: { jobId: string }) {
  const job = useJob(jobId);
  const live = job.data ? isLive(job.data.status) : true;
  const feed = useJobEvents(jobId, live);
  useRefreshOnFinish(useMemo(() => (job.data ? [job.data] : undefined), [job.data]));
  const points = useMemo(() => gradientSteps(feed.events), [feed.events]);
  const metrics = chartedMetrics(points);

  if (job.isPending) return <DetailSkeleton label="Loading job" />;
  if (job.isError) {
    return (
      <DetailLoadError
        what="the job"
        error={job.error}
        retry={() => void job.refetch()}
        notFound={{ title: "Job not found", reason: "It belongs to a model that was deleted, or to a team you are not in.", href: "/jobs", link: "All jobs" }}
      />
    );
  }
  const data = job.data;
  return (
    <div className="space-y-5">
      <DetailHeader
        back={{ href: "/jobs", label: "Jobs" }}
        title={
          <>
            {data.kind.toUpperCase()} job <span className="font-mono text-base font-normal text-zinc-500">{shortJobId(data.id)}</span>
          </>
        }
        badge={<JobStatusBadge status={data.status} />}
        actions={
          <>
            {isLive(data.status) && <CancelJob job={data} />}
            <CheckpointLinks job={data} />
          </>
        }
      />

      <section className="rounded-xl border border-zinc-200 bg-white px-4 py-4 shadow-xs">
        <JobProgress job={data} points={points} />
        <dl className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-5">
          <Fact label="Model">
            <ModelName modelId={data.model_id} />
          </Fact>
          <Fact label="Created">
            <RelativeTime iso={data.created_at} />
          </Fact>
          <Fact label="Started">
            <RelativeTime iso={data.started_at} fallback="not yet" />
          </Fact>
          <Fact label="Finished">
            <RelativeTime iso={data.finished_at} fallback={isLive(data.status) ? "not yet" : "—"} />
          </Fact>
          <Fact label="Checkpoint">{data.checkpoint_step === null ? <span className="text-zinc-400">—</span> : <span className="tabular-nums">step {data.checkpoint_step}</span>}</Fact>
        </dl>
        <ServedLogRatio points={points} />
      </section>

      {data.status === "failed" && data.error && (
        <Alert title="Training failed">
          <span data-testid="job-error">{data.error}</span>
        </Alert>
      )}
      {data.waiting_for && <Alert tone="warning" title="Waiting"><span data-testid="job-waiting-for">Waiting for {data.waiting_for}.</span></Alert>}
      {data.status === "cancelled" && <Alert tone="warning" title="Cancelled">{data.error ?? "The job was cancelled; it wrote no checkpoint."}</Alert>}
      <JobWarnings warnings={data.warnings} />

      <Panel title="Training curves" description={live ? "Updated live, one point per gradient step." : "One point per gradient step."}>
        {metrics.length === 0 ? (
          <p className="px-4 py-8 text-center text-sm text-zinc-500">{live ? "The charts appear with the first gradient step." : "This job took no gradient step."}</p>
        ) : (
          <div className="grid gap-3 p-3 sm:grid-cols-2">
            {metrics.map((metric) => (
              <StepChart key={metric} metric={metric} points={points} />
            ))}
          </div>
        )}
      </Panel>

      <SampleReplies samples={data.sample_replies} />

      <div className="grid gap-5 lg:grid-cols-2">
        <Panel title="Config" description={data.kind === "sft" ? "batch_size, learning_rate, epochs, validation, assistant_turns as submitted (empty: defaults)" : "experimental_config as submitted (empty: defaults)"}>
          <pre data-testid="job-config" className="max-h-64 overflow-auto px-4 py-3 font-mono text-xs text-zinc-700">{JSON.stringify(data.config, null, 2)}</pre>
        </Panel>
        <Panel title="Input">
          <dl className="grid grid-cols-2 gap-4 px-4 py-3">
            {Object.entries(data.input_summary).map(([key, value]) => (
              <Fact key={key} label={key.replaceAll("_", " ")}>
                <span className="tabular-nums">{value}</span>
              </Fact>
            ))}
            <Fact label="attempts">
              <span className="tabular-nums">{data.attempts}</span>
            </Fact>
          </dl>
        </Panel>
      </div>

      {data.source && <JobLineage source={data.source} />}
      {data.runs.length > 1 && <JobRuns runs={data.runs} />}

      <Panel title="Events" description="In order, newest at the bottom.">
        {feed.isError ? (
          <QueryError what="the events" error={feed.error} retry={() => void feed.refetch()} />
        ) : feed.isPending && feed.events.length === 0 ? (
          <div className="space-y-2 p-4" role="status" aria-label="Loading events">
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-2/3" />
          </div>
        ) : feed.events.length === 0 ? (
          <p className="px-4 py-6 text-center text-sm text-zinc-500">No events yet: the job is waiting for a worker to claim it.</p>
        ) : (
          <JobEventsTable events={feed.events} />
        )}
      </Panel>
    </div>
  );
}

function CancelJob({ job }: { job: Job }) {
  const cancel = useCancelJob(job.id);
  return <CancelButton noun="job" cancelRequested={job.cancel_requested} cancel={cancel} description="A running job stops within a heartbeat. It writes no checkpoint; the steps it took are lost." />;
}
