// GET /v1/workers/leases/{token}/inputs — the leased job as token ids
import { handle } from "@/lib/http/handle";
import { leaseInputs, leaseLinks } from "@/lib/workers/lease-downloads";
import { leaseInputsOp } from "@/lib/workers/operations";
import { findOwnedLease } from "@/lib/workers/owned-lease";

export const GET = handle(leaseInputsOp, async ({ principal, params }) => leaseInputs(await findOwnedLease(principal, params.token), leaseLinks(params.token)));
