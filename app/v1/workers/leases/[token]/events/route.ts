// POST /v1/workers/leases/{token}/events — gradient steps for the job's feed
import { handle } from "@/lib/http/handle";
import { appendLeaseEvents } from "@/lib/workers/lease-progress";
import { leaseEventsOp } from "@/lib/workers/operations";
import { findOwnedLease } from "@/lib/workers/owned-lease";

export const POST = handle(leaseEventsOp, async ({ principal, params, body }) => appendLeaseEvents(await findOwnedLease(principal, params.token), body.events));
