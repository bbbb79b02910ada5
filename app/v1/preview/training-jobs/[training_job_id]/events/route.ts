// GET /v1/preview/training-jobs/{training_job_id}/events — the job's events (cursor page)
import { handle } from "@/lib/http/handle";
import { listJobEvents } from "@/lib/training/jobs/events";
import { listJobEventsOp } from "@/lib/training/jobs/operations";

export const GET = handle(listJobEventsOp, ({ principal, params, query }) => listJobEvents(principal, params.training_job_id, query));
