// POST /v1/preview/training-jobs/{id}/bundle-result — import a job bundle's result.tar
import { handle } from "@/lib/http/handle";
import { importBundleResult } from "@/lib/workers/job-bundle";
import { importBundleResultOp } from "@/lib/workers/operations";

export const POST = handle(importBundleResultOp, ({ principal, params, body }) => importBundleResult(principal, params.training_job_id, body));
