// POST /v1/preview/sft-training-jobs — queue an SFT job
import { handle } from "@/lib/http/handle";
import { createSftJob } from "@/lib/training/jobs/jobs";
import { createSftJobOp } from "@/lib/training/jobs/operations";

export const POST = handle(createSftJobOp, ({ principal, body }) => createSftJob(principal, body));
