// GET /v1/calls — recorded chat completions (cursor page, newest first)
import { listCalls } from "@/lib/calls/calls";
import { listCallsOp } from "@/lib/calls/operations";
import { handle } from "@/lib/http/handle";

export const GET = handle(listCallsOp, ({ principal, query }) => listCalls(principal, query));
