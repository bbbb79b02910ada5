// GET /v1/calls/{call_id} — one recorded call with its whole request and response
import { getCall } from "@/lib/calls/get-call";
import { getCallOp } from "@/lib/calls/operations";
import { handle } from "@/lib/http/handle";

export const GET = handle(getCallOp, ({ principal, params }) => getCall(principal, params.call_id));
