// POST /v1/workers/leases/{token}/heartbeat — extend the lease; brings a cancel request
import { handle } from "@/lib/http/handle";
import { heartbeat } from "@/lib/workers/lease-progress";
import { heartbeatOp } from "@/lib/workers/operations";
import { findOwnedLease } from "@/lib/workers/owned-lease";

export const POST = handle(heartbeatOp, async ({ principal, params }) => heartbeat(principal, await findOwnedLease(principal, params.token)));
