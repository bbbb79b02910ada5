// A remote worker's SFT job gets the guard rails a local job gets (docs/workers.md "Guard rails"): a
// worker trains from token ids and cannot read replies, so the server measures the checkpoint it
// uploaded against the weights the job started from, on its own engine, inside the complete call
// and before the job's end is written — the report is final when the job is `succeeded`. That runs
// on a thread started for the call (checks of a tiny base take seconds, of a 0.5B one minutes), for
// at most ANNEAL_REMOTE_GUARD_RAILS_MS, the lease held meanwhile (no heartbeat renews it while the
// worker waits for the answer). A base only an upstream server runs is not run here: the report says so.
import { getEnv } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { baseModelCatalogue, findBaseModel } from "@/lib/inference/base-models";
import { log } from "@/lib/log";
import type { JobReport } from "@/lib/training/jobs/job-report";
import { loadJobSource } from "@/lib/training/jobs/load-job-task";
import { holdJobLease } from "@/lib/training/jobs/queue";
import { trainsLocally } from "@/lib/training/trainable-base";
import type { TrainedWeightsAnswer, TrainedWeightsRequest } from "./check-trained-weights";
import { onOneShotThread } from "./one-shot-thread";
import type { OwnedLease } from "./owned-lease";

/** What the checks add to the worker's metrics (probe/*, val/accuracy), and the job's report. */
export interface RemoteSftChecks {
  metrics: Record<string, number>;
  report: JobReport;
}

/** How long past its deadline the thread may take to stop (it looks at the clock before each
 *  generated token) before the call goes on without it. */
const STOP_GRACE_MS = 5_000;

const notRun = (why: string): RemoteSftChecks => ({
  metrics: {},
  report: { warnings: [{ code: "guard_rails_not_run", message: `The before/after reply checks did not run: ${why}. Try the checkpoint in the playground before serving it.` }], samples: [] },
});

const cutShort = (seconds: number, during: string): RemoteSftChecks => ({
  metrics: {},
  report: {
    warnings: [{
      code: "guard_rails_cut_short",
      message: `The before/after reply checks were cut short after ${seconds} s (ANNEAL_REMOTE_GUARD_RAILS_MS) while measuring ${during}: greedy replies on this base take longer than that on this server's engine, so the checkpoint was not checked. Try it in the playground before serving it.`,
    }],
    samples: [],
  },
});

/** An SFT job's checks of `checkpoint` (the stored file, absolute), before the job ends; null for
 *  another kind of job (RL has no guard rails). */
export async function remoteSftChecks(lease: OwnedLease, checkpoint: string): Promise<RemoteSftChecks | null> {
  const { kind } = await getDb().trainingJob.findUniqueOrThrow({ where: { id: lease.jobId }, select: { kind: true } });
  if (kind !== "sft") return null;
  const base = findBaseModel((await baseModelCatalogue()).models, lease.model.baseModel);
  if (!base || !trainsLocally(base)) {
    return notRun(`the base '${lease.model.baseModel}' is served by an upstream server, and this server's engine runs only the GGUF bases it serves itself`);
  }
  const budgetMs = getEnv().ANNEAL_REMOTE_GUARD_RAILS_MS;
  if (budgetMs === 0) return notRun("they are turned off on this server (ANNEAL_REMOTE_GUARD_RAILS_MS=0)");
  const started = Date.now();
  try {
    await holdJobLease(lease.jobId, lease.owner, budgetMs + STOP_GRACE_MS + getEnv().ANNEAL_JOB_LEASE_MS);
    const { task } = await loadJobSource(lease.jobId);
    const request: TrainedWeightsRequest = { task, checkpoint, trainLosses: await trainLosses(lease.jobId), deadline: started + budgetMs };
    const answer = await withinMs(onOneShotThread<TrainedWeightsAnswer>("guard-rails-thread.mjs", request, "guard rails"), budgetMs + STOP_GRACE_MS);
    log.info("remote job: guard rails measured", { jobId: lease.jobId, ms: Date.now() - started, cutShort: !answer || "cutShort" in answer });
    if (!answer) return cutShort(budgetMs / 1000, "the replies (one step of generation outlasted the budget)");
    return "measured" in answer ? answer.measured : cutShort(budgetMs / 1000, answer.cutShort.during);
  } catch (error) {
    log.error("remote job: the guard rails failed", { jobId: lease.jobId, error });
    return notRun(`they failed on this server (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** The job's gradient steps' losses, in order (a resumed attempt's steps are in the feed once). */
async function trainLosses(jobId: string): Promise<number[]> {
  const events = await getDb().trainingJobEvent.findMany({ where: { jobId, type: "gradient_step" }, orderBy: { seq: "asc" }, select: { data: true } });
  return events.map((e) => (e.data as { loss?: number }).loss ?? NaN);
}

/** The work's answer, or null once `ms` have passed (the work goes on unwatched; a later failure is logged). */
function withinMs<T>(work: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  let givenUp = false;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => ((givenUp = true), resolve(null)), ms)));
  work.catch((error: unknown) => {
    if (givenUp) log.warn("remote job: the guard-rails thread failed after the call went on without it", { error });
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
