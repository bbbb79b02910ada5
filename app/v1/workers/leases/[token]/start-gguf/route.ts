// GET /v1/workers/leases/{token}/start-gguf — a full-weights model's newest checkpoint
import { handle } from "@/lib/http/handle";
import { startCheckpoint } from "@/lib/workers/lease-downloads";
import { startGgufOp } from "@/lib/workers/operations";
import { findOwnedLease } from "@/lib/workers/owned-lease";

export const GET = handle(startGgufOp, async ({ principal, params }) => startCheckpoint(await findOwnedLease(principal, params.token), "gguf"));
