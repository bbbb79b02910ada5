"use client";

import { Columns2, MessageSquare } from "lucide-react";
import Link from "next/link";
import { JobStatusBadge } from "@/components/jobs/job-status-badge";
import { ModelName } from "@/components/jobs/model-name";
import { isLive } from "@/components/jobs/queries";
import { inferenceName, playgroundHref } from "@/components/models/playground-link";
import { useTrainedModel } from "@/components/models/queries";
import { useCancelRlRun, useRlRun, type RlRun } from "@/components/rl-runs/queries";
import { RewardCurve } from "@/components/rl-runs/reward-curve";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CancelButton } from "@/components/ui/cancel-button";
import { DetailHeader, DetailLoadError, DetailSkeleton, Fact } from "@/components/ui/detail-page";
import { Panel } from "@/components/ui/panel";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { shortJobId } from "@/lib/client/job-progress";

// /jobs/rl-runs/{id}: an RL run's progress and its reward curve over iterations (live while it
// runs), each iteration's job and checkpoint, Cancel, and its last checkpoint in the playground.

const reward = new Intl.NumberFormat("en", { maximumFractionDigits: 3 });

/** The newest checkpoint the run wrote, in the playground alone or beside the base model. */
function LastCheckpointLinks({ run }: { run: RlRun }) {
  const model = useTrainedModel(run.model_id);
  const step = run.history.findLast((h) => h.checkpoint_step !== null)?.checkpoint_step;
  if (step === undefined || step === null || !model.data) return null;
  const checkpoint = inferenceName(model.data, step);
  return (
    <>
      <Button asChild size="sm">
        <Link href={playgroundHref(checkpoint)}>
          <MessageSquare /> Open step {step} in playground
        </Link>
      </Button>
      <Button asChild variant="secondary" size="sm">
        <Link href={`${playgroundHref(checkpoint)}&compare=${encodeURIComponent(model.data.base_model)}`} title={`${checkpoint} beside ${model.data.base_model}`}>
          <Columns2 /> Compare with base
        </Link>
      </Button>
    </>
  );
}

function IterationsTable({ run }: { run: RlRun }) {
  if (run.history.length === 0) return <p className="px-4 py-6 text-center text-sm text-zinc-500">{isLive(run.status) ? "Rolling out the first iteration…" : "No iteration rolled out."}</p>;
  return (
    <Table label="Iterations">
      <THead>
        <Th>Iteration</Th>
        <Th className="text-right">Sampled from</Th>
        <Th className="text-right">Reward</Th>
        <Th className="text-right">± std</Th>
        <Th className="text-right">Groups with signal</Th>
        <Th>Job</Th>
        <Th className="text-right">Checkpoint</Th>
      </THead>
      <tbody>
        {run.history.map((h) => (
          <Tr key={h.iteration} data-testid="iteration-row">
            <Td className="tabular-nums">{h.iteration + 1}</Td>
            <Td className="text-right tabular-nums text-zinc-600">step {h.rollout_step}</Td>
            <Td className="text-right tabular-nums">{reward.format(h.reward_mean)}</Td>
            <Td className="text-right tabular-nums text-zinc-500">{reward.format(h.reward_std)}</Td>
            <Td className="text-right tabular-nums text-zinc-600">
              {h.trainable_groups}/{run.prompts_per_iteration}
            </Td>
            <Td>
              {h.job_id ? (
                <Link href={`/jobs/${h.job_id}`} className="font-mono text-[13px] text-brand-700 hover:underline" aria-label={`Job ${h.job_id}`}>
                  {shortJobId(h.job_id)}
                </Link>
              ) : (
                <span className="text-xs text-zinc-400" title="Every group's replies got the same reward: nothing to learn, no job">no signal</span>
              )}
            </Td>
            <Td className="text-right tabular-nums">{h.checkpoint_step === null ? <span className="text-zinc-400">{h.job_id && !h.finished_at ? "training…" : "—"}</span> : `step ${h.checkpoint_step}`}</Td>
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}

export function RlRunView({ runId }: { runId: string }) {
  const query = useRlRun(runId);
  if (query.isPending) return <DetailSkeleton label="Loading RL run" />;
  if (query.isError) {
    return (
      <DetailLoadError
        what="the RL run"
        error={query.error}
        retry={() => void query.refetch()}
        notFound={{ title: "RL run not found", reason: "It belongs to a model that was deleted, or to a team you are not in.", href: "/jobs", link: "All jobs" }}
      />
    );
  }
  const run = query.data;
  const live = isLive(run.status);
  return (
    <div className="space-y-5">
      <DetailHeader
        back={{ href: "/jobs", label: "Jobs" }}
        title={
          <>
            RL run <span className="font-mono text-base font-normal text-zinc-500">{shortJobId(run.id)}</span>
          </>
        }
        badge={<JobStatusBadge status={run.status} />}
        actions={
          <>
            {live && <CancelRun run={run} />}
            <LastCheckpointLinks run={run} />
          </>
        }
      />
      <section className="rounded-xl border border-zinc-200 bg-white px-4 py-4 shadow-xs">
        <p className="text-sm text-zinc-700" data-testid="run-progress">
          Iteration {Math.min(run.iterations_done + (live ? 1 : 0), run.iterations)} of {run.iterations}
          {live && run.current_job_id ? " — training" : live && run.status === "running" ? " — rolling out" : ""}
        </p>
        <dl className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-5">
          <Fact label="Model">
            <ModelName modelId={run.model_id} />
          </Fact>
          <Fact label="Prompts">
            {run.prompt_count} ({String(run.prompt_source.source)}), {run.prompts_per_iteration} per iteration
          </Fact>
          <Fact label="Checker">
            <span className="font-mono text-xs">{String(run.checker.type)}</span>
          </Fact>
          <Fact label="Sampling">
            {run.group_size} replies per prompt, temperature {run.temperature}, ≤ {run.max_tokens} tokens, {run.seed === null ? "unseeded" : `seed ${run.seed}`}
          </Fact>
          <Fact label="Started">
            <RelativeTime iso={run.started_at} fallback="not yet" />
          </Fact>
        </dl>
      </section>
      {run.status === "failed" && run.error && (
        <Alert title="The run failed">
          <span data-testid="run-error">{run.error}</span>
        </Alert>
      )}
      {run.status === "cancelled" && <Alert tone="warning" title="Cancelled">{run.error ?? "The run was cancelled."}</Alert>}
      <Panel title="Reward" description={live ? "Updated live: one point per iteration, scored on the replies it sampled." : "One point per iteration, scored on the replies it sampled."}>
        <div className="p-3">
          <RewardCurve history={run.history} />
        </div>
      </Panel>
      <Panel title="Iterations" description="Each iteration's rollouts, the RL job they trained and the checkpoint it wrote.">
        <IterationsTable run={run} />
      </Panel>
      <Panel title="Checker and training config">
        <pre className="max-h-64 overflow-auto px-4 py-3 font-mono text-xs text-zinc-700">{JSON.stringify({ checker: run.checker, experimental_config: run.experimental_config }, null, 2)}</pre>
      </Panel>
    </div>
  );
}

function CancelRun({ run }: { run: RlRun }) {
  const cancel = useCancelRlRun(run.id);
  return <CancelButton noun="run" cancelRequested={run.cancel_requested} cancel={cancel} description="The iteration in progress stops and its job is cancelled. Checkpoints earlier iterations wrote stay." />;
}
