// POST /feedback/stats — a project's feedback aggregated over time buckets
import { handle } from "@/lib/http/handle";
import { feedbackStats, STATS_SOURCE_HEADER } from "@/lib/feedback/stats";
import { feedbackStatsOp } from "@/lib/feedback/stats-operations";

export const POST = handle(feedbackStatsOp, async ({ principal, body, requestId }) => {
  const { stats, source } = await feedbackStats(principal, body);
  return Response.json(stats, { headers: { "x-request-id": requestId, [STATS_SOURCE_HEADER]: source } });
});
