// POST /v1/preview/training-jobs — queue an RL job; GET — list jobs
import { handle } from "@/lib/http/handle";
import { createRlJob, listJobs } from "@/lib/training/jobs/jobs";
import { createRlJobOp, listJobsOp } from "@/lib/training/jobs/operations";

export const POST = handle(createRlJobOp, ({ principal, body }) => createRlJob(principal, body));

export const GET = handle(listJobsOp, ({ principal, query }) => listJobs(principal, query));
