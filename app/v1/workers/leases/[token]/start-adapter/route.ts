// GET /v1/workers/leases/{token}/start-adapter?format=peft|gguf-lora — the model's newest adapter
import { handle } from "@/lib/http/handle";
import { startCheckpoint } from "@/lib/workers/lease-downloads";
import { startAdapterOp } from "@/lib/workers/operations";
import { findOwnedLease } from "@/lib/workers/owned-lease";

export const GET = handle(startAdapterOp, async ({ principal, params, query }) => startCheckpoint(await findOwnedLease(principal, params.token), query.format));
