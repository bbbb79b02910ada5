// GET /v1/preview/training-jobs/{training_job_id} — a job and its status
import { handle } from "@/lib/http/handle";
import { getJob } from "@/lib/training/jobs/jobs";
import { getJobOp } from "@/lib/training/jobs/operations";

export const GET = handle(getJobOp, ({ principal, params }) => getJob(principal, params.training_job_id));
