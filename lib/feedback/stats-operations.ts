import { defineOperation } from "@/lib/contract/operation";
import { feedbackStatsBody, feedbackStatsResult, payloadKeysBody, payloadKeysResult } from "./stats-schema";

// Feedback statistics (W&B Weave's POST /feedback/stats) and the payload keys they can be built on.
// Basic auth or the console session, as the other feedback routes; every role of the team.

export const feedbackStatsOp = defineOperation({
  id: "feedbackStats", method: "POST", path: "/feedback/stats", tag: "Feedback", auth: "basic",
  summary: "Aggregate a project's feedback payloads over time buckets aligned to a time zone's wall clock, and over the whole range",
  body: feedbackStatsBody, response: feedbackStatsResult,
});

export const feedbackPayloadKeysOp = defineOperation({
  id: "feedbackPayloadKeys", method: "POST", path: "/feedback/stats/keys", tag: "Feedback", auth: "basic",
  summary: "The payload paths (and the kind of value at each) of a project's recent feedback, to build /feedback/stats metrics on",
  body: payloadKeysBody, response: payloadKeysResult,
});
