// GET /v1/preview/training-jobs/{training_job_id} — a job and its status (queued: what it waits for)
import { handle } from "@/lib/http/handle";
import { getJob } from "@/lib/training/jobs/jobs";
import { getJobOp } from "@/lib/training/jobs/operations";
import { withWaitingFor } from "@/lib/workers/waiting-for";

export const GET = handle(getJobOp, async ({ principal, params }) => (await withWaitingFor([await getJob(principal, params.training_job_id)]))[0]);
