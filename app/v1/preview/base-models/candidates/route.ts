// GET /v1/preview/base-models/candidates — GGUF files under ANNEAL_MODELS_DIR that could be added (instance admins)
import { listBaseModelCandidatesOp } from "@/lib/base-models/operations";
import { listBaseModelCandidates } from "@/lib/base-models/manage-base-models";
import { handle } from "@/lib/http/handle";

export const GET = handle(listBaseModelCandidatesOp, () => listBaseModelCandidates());
