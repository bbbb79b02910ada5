// POST /v1/preview/training-jobs — queue an RL job; GET — list jobs (queued ones say what they wait for)
import { handle } from "@/lib/http/handle";
import { createRlJob, listJobs } from "@/lib/training/jobs/jobs";
import { createRlJobOp, listJobsOp } from "@/lib/training/jobs/operations";
import { withWaitingFor } from "@/lib/workers/waiting-for";

export const POST = handle(createRlJobOp, ({ principal, body }) => createRlJob(principal, body));

export const GET = handle(listJobsOp, async ({ principal, query }) => {
  const page = await listJobs(principal, query);
  return { ...page, data: await withWaitingFor(page.data) };
});
