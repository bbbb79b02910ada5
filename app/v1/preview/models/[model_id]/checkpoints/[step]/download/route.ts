// GET /v1/preview/models/{model_id}/checkpoints/{step}/download — a checkpoint as a file (gguf-lora, peft, merged-gguf, gguf)
import { handle } from "@/lib/http/handle";
import { downloadCheckpoint } from "@/lib/training/models/checkpoint-download";
import { downloadCheckpointOp } from "@/lib/training/models/operations";

export const GET = handle(downloadCheckpointOp, ({ principal, params, query }) => downloadCheckpoint(principal, params.model_id, params.step, query.format));
