// GET /v1/workers/leases/{token}/state — the committed resume state; POST — commit an uploaded one
import { handle } from "@/lib/http/handle";
import { resumeState } from "@/lib/workers/lease-downloads";
import { commitLeaseState } from "@/lib/workers/lease-results";
import { commitLeaseStateOp, getLeaseStateOp } from "@/lib/workers/operations";
import { findOwnedLease } from "@/lib/workers/owned-lease";

export const GET = handle(getLeaseStateOp, async ({ principal, params }) => resumeState(await findOwnedLease(principal, params.token)));

export const POST = handle(commitLeaseStateOp, async ({ principal, params, body }) => commitLeaseState(await findOwnedLease(principal, params.token), body));
