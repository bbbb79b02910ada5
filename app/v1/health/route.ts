// GET /v1/health — liveness
import { handle } from "@/lib/http/handle";
import { healthOp } from "@/lib/health/operations";

export const GET = handle(healthOp, async () => ({ status: "ok" as const }));
