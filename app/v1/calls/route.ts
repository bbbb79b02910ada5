// GET /v1/calls — the call log: recorded chat completions (cursor page, newest first, filters, feedback summaries)
import { listCalls } from "@/lib/calls/list-calls";
import { listCallsOp } from "@/lib/calls/operations";
import { handle } from "@/lib/http/handle";

export const GET = handle(listCallsOp, ({ principal, query }) => listCalls(principal, query));
