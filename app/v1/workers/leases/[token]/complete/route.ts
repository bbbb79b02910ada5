// POST /v1/workers/leases/{token}/complete — end the job with its uploaded checkpoint
import { handle } from "@/lib/http/handle";
import { completeLease } from "@/lib/workers/lease-results";
import { completeLeaseOp } from "@/lib/workers/operations";
import { findOwnedLease } from "@/lib/workers/owned-lease";

export const POST = handle(completeLeaseOp, async ({ principal, params, body }) => completeLease(await findOwnedLease(principal, params.token), body));
