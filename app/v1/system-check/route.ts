// GET /v1/system-check — real dependency checks; 503 when a configured one fails
import { handle } from "@/lib/http/handle";
import { systemCheckOp } from "@/lib/health/operations";
import { runSystemCheck } from "@/lib/health/system-check";

export const GET = handle(systemCheckOp, async () => {
  const { healthy, result } = await runSystemCheck();
  return Response.json(result, { status: healthy ? 200 : 503 });
});
