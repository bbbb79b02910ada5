// GET /v1/usage — daily inference usage per team, project and model
import { handle } from "@/lib/http/handle";
import { getUsageOp } from "@/lib/inference/operations";
import { getUsage } from "@/lib/inference/usage";

export const GET = handle(getUsageOp, ({ principal, query }) => getUsage(principal, query));
