// POST /v1/workers/probe — a worker's logprobs of a base's probe, compared with Anneal's
import { handle } from "@/lib/http/handle";
import { checkProbe } from "@/lib/workers/base-probe";
import { probeOp } from "@/lib/workers/operations";

export const POST = handle(probeOp, ({ principal, body }) => checkProbe(principal, body));
