import * as identity from "@/lib/auth/operations";
import * as baseModels from "@/lib/base-models/operations";
import * as calls from "@/lib/calls/operations";
import * as feedback from "@/lib/feedback/operations";
import * as feedbackStats from "@/lib/feedback/stats-operations";
import * as files from "@/lib/files/operations";
import * as health from "@/lib/health/operations";
import * as inference from "@/lib/inference/operations";
import * as queues from "@/lib/queues/operations";
import * as fromJudgement from "@/lib/training/from-judgement/operations";
import * as jobs from "@/lib/training/jobs/operations";
import * as models from "@/lib/training/models/operations";
import * as rlRuns from "@/lib/training/rl-runs/operations";
import * as trainingEstimate from "@/lib/training/estimate/operations";
import * as workers from "@/lib/workers/operations";
import type { Operation } from "@/lib/contract/operation";

// Every operation of the API, in one list: the OpenAPI document, the public-route list and the
// auth-matrix test read it. A route file whose method is not listed here fails that test.

const isOperation = (value: unknown): value is Operation =>
  typeof value === "object" && value !== null && "method" in value && "path" in value && "auth" in value;

export const ALL_OPERATIONS: Operation[] = [identity, health, inference, baseModels, calls, models, trainingEstimate, jobs, rlRuns, fromJudgement, files, feedback, feedbackStats, queues, workers].flatMap((module) =>
  Object.values(module).filter(isOperation),
);

/** `METHOD /path` of every route that needs no credentials. */
export const PUBLIC_ROUTES: string[] = ALL_OPERATIONS.filter((op) => op.auth === "public").map(
  (op) => `${op.method} ${op.path}`,
);
