// GET /v1/preview/training-estimate — a LoRA adapter's size on a base and what a job will cost (an estimate)
import { handle } from "@/lib/http/handle";
import { estimateTraining } from "@/lib/training/estimate/estimate-training";
import { getTrainingEstimateOp } from "@/lib/training/estimate/operations";

export const GET = handle(getTrainingEstimateOp, ({ query }) => estimateTraining(query));
