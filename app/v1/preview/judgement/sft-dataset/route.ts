// POST /v1/preview/judgement/sft-dataset — an SFT dataset file from human judgement
import { handle } from "@/lib/http/handle";
import { buildSftDataset } from "@/lib/training/from-judgement/build-sft-dataset";
import { buildSftDatasetOp } from "@/lib/training/from-judgement/operations";

export const POST = handle(buildSftDatasetOp, ({ principal, body }) => buildSftDataset(principal, body));
