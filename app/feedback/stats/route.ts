// POST /feedback/stats — a project's feedback aggregated over time buckets
import { handle } from "@/lib/http/handle";
import { feedbackStats } from "@/lib/feedback/stats";
import { feedbackStatsOp } from "@/lib/feedback/stats-operations";

export const POST = handle(feedbackStatsOp, ({ principal, body }) => feedbackStats(principal, body));
