// POST /v1/workers/leases/{token}/fail — fail, cancel or release the leased job
import { handle } from "@/lib/http/handle";
import { failLease } from "@/lib/workers/lease-progress";
import { failLeaseOp } from "@/lib/workers/operations";
import { findOwnedLease } from "@/lib/workers/owned-lease";

export const POST = handle(failLeaseOp, async ({ principal, params, body }) => failLease(await findOwnedLease(principal, params.token), body));
