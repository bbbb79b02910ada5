// POST /v1/preview/training-jobs/{training_job_id}/cancel — cancel a queued or running job
import { handle } from "@/lib/http/handle";
import { cancelJob } from "@/lib/training/jobs/jobs";
import { cancelJobOp } from "@/lib/training/jobs/operations";

export const POST = handle(cancelJobOp, ({ principal, params }) => cancelJob(principal, params.training_job_id));
