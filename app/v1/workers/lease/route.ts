// POST /v1/workers/lease — a remote worker checks in and leases a job (or is asked to probe a base)
import { handle } from "@/lib/http/handle";
import { leaseJob } from "@/lib/workers/lease-job";
import { leaseOp } from "@/lib/workers/operations";

export const POST = handle(leaseOp, ({ principal, body }) => leaseJob(principal, body));
