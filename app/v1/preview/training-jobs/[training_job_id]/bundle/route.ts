// POST /v1/preview/training-jobs/{id}/bundle — lease a job to a job bundle (job.tar)
import { handle } from "@/lib/http/handle";
import { createJobBundle } from "@/lib/workers/job-bundle";
import { createJobBundleOp } from "@/lib/workers/operations";

export const POST = handle(createJobBundleOp, ({ principal, params, body }) => createJobBundle(principal, params.training_job_id, body.lease_hours));
