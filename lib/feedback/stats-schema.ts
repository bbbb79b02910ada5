import { z } from "zod";
import { projectRefSchema } from "@/lib/auth/names";
import { instantSchema } from "@/lib/contract/dates";
import { MAX_REF_LENGTH } from "./refs";

// POST /feedback/stats (W&B Weave's FeedbackStatsReq/Res) and POST /feedback/stats/keys, the payload
// keys a project's feedback has, for the console's metric builder. What the semantic checks refuse
// (end <= start, granularity < 1, an unknown zone, a bad json_path or percentile) is a 400, as the
// contract says, not a 422: they are made by lib/feedback/stats.ts and stats-metrics.ts.

export const VALUE_TYPES = ["numeric", "boolean", "categorical"] as const;
export type ValueType = (typeof VALUE_TYPES)[number];
export const AGGREGATIONS = ["sum", "avg", "min", "max", "count", "count_true", "count_false"] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

const MAX_METRICS = 20;
/** A hundred years: the widest bucket (a wider one reaches before the Unix epoch's calendar). */
export const MAX_GRANULARITY = 100 * 366 * 86_400;

export const metricSpecSchema = z.object({
  json_path: z
    .string()
    .max(512)
    .describe("Dot path into the payload, e.g. `score` or `output.score`: keys of `A-Za-z0-9_` and spaces (no array indices); a 400 otherwise."),
  value_type: z
    .enum(VALUE_TYPES)
    .default("numeric")
    .describe("How the value is read: `numeric` (JSON numbers), `boolean` (true/false; 1/0 for sum, avg, min, max) or `categorical` (strings). Other values count as missing."),
  aggregations: z
    .array(z.enum(AGGREGATIONS))
    .max(AGGREGATIONS.length * 2)
    .optional()
    .describe(
      "Default (omitted or empty): numeric → avg, min, max; boolean → count_true, count_false; categorical → count. `count` counts the values present; " +
        "a categorical metric's `count` is an object {category: rows} of its 100 most frequent values in the window. An aggregation that does not apply to the value type is a 400.",
    ),
  percentiles: z
    .array(z.number())
    .max(16)
    .optional()
    .describe(
      "0..100 (a 400 otherwise), by linear interpolation between the two nearest values (as percentile_cont), as keys `p<P>_<slug>` (`p95_score`, `p99.9_score`): " +
        "within 1 % of the larger of those two magnitudes when read from the aggregate cells (`x-anneal-stats-source: cells` or `cells+rows`), exact from the rows. Numeric metrics only; ignored on others.",
    ),
});
export type MetricSpec = z.output<typeof metricSpecSchema>;

const statsFilters = {
  project_id: projectRefSchema.describe("`<team>/<project>`."),
  feedback_type: z.string().min(1).max(256).optional().describe("Only feedback of this exact type."),
  trigger_ref: z
    .string()
    .min(1)
    .max(MAX_REF_LENGTH)
    .optional()
    .describe("Only feedback with this trigger_ref; ending in `:*`, every version of it (`svc:///t/p/object/monitor:*` matches `…/monitor:<any digest>`, not `…/monitor2:…`)."),
};

export const feedbackStatsBody = z.object({
  ...statsFilters,
  start: instantSchema.describe("Inclusive start, ISO 8601 (UTC unless an offset is given)."),
  end: instantSchema.optional().describe("Exclusive end (default: now); after `start`, or a 400."),
  granularity: z
    .number()
    .int()
    .max(MAX_GRANULARITY)
    .optional()
    .describe(
      "Bucket size in seconds, at least 1 (a 400 otherwise). Default: from the range — ≤2 h → 300, ≤12 h → 3600, ≤3 d → 21600, ≤14 d → 43200, else 86400. " +
        "Raised to fit when the range would hold more than 10,000 buckets; the answer says the one used.",
    ),
  timezone: z
    .string()
    .max(64)
    .default("UTC")
    .describe(
      "IANA time zone whose wall clock the buckets are floored in (a 400 for an unknown one): hours start on the local hour, days at local midnight (23 or 25 h long across DST). " +
        "Under a day, when clocks go back the repeated hour is a bucket of its own; when they go forward the skipped hour has none.",
    ),
  metrics: z.array(metricSpecSchema).max(MAX_METRICS).default([]).describe("What to aggregate from the payloads; without metrics the buckets still count the rows."),
});
export type FeedbackStatsBody = z.output<typeof feedbackStatsBody>;

/** A categorical metric's `count`: category → rows. */
const categoryCounts = z.record(z.string(), z.number());
const statValue = z.union([z.number(), z.null(), categoryCounts]);

export const feedbackStatsResult = z.object({
  start: z.string().describe("The request's start, UTC."),
  end: z.string().describe("The end used, UTC."),
  granularity: z.number().int().describe("Seconds per bucket, as used."),
  timezone: z.string(),
  buckets: z
    .array(z.record(z.string(), z.union([z.string(), statValue])))
    .describe(
      "Every bucket from the one containing `start` to the last starting before `end`, oldest first: `timestamp` (its start, UTC ISO 8601 with Z), `count` (rows matching the filters), " +
        "and `<agg>_<slug>` / `p<P>_<slug>` per metric. An empty bucket has count 0, sum/count/count_true/count_false 0, avg/min/max/percentiles null.",
    ),
  window_stats: z
    .record(z.string(), z.record(z.string(), statValue))
    .describe("Per metric slug, each aggregation (`avg`, `count_true`, `p50` …) over the whole range [start, end)."),
});
export type FeedbackStatsResult = z.infer<typeof feedbackStatsResult>;

export const payloadKeysBody = z.object({
  ...statsFilters,
  start: instantSchema.optional().describe("Only feedback created at or after this instant (default: any time)."),
  end: instantSchema.optional().describe("Only feedback created before this instant (default: now)."),
});
export type PayloadKeysBody = z.output<typeof payloadKeysBody>;

export const PAYLOAD_KINDS = ["number", "boolean", "string"] as const;
/** The keys are read from a sample: the newest rows of each feedback type (for the first types in
 *  name order), skipping payloads larger than this many bytes as stored. */
export const KEY_SAMPLE = { rowsPerType: 100, types: 100, maxPayloadBytes: 16 * 1024 } as const;

export const payloadKeysResult = z.object({
  keys: z
    .array(
      z.object({
        json_path: z.string().describe("Usable as a metric's json_path."),
        value_kind: z.enum(PAYLOAD_KINDS).describe("The kind of JSON value most often found there: number → numeric, boolean → boolean, string → categorical."),
      }),
    )
    .describe(
      `The paths to numbers, booleans and strings (through objects, not arrays) in the newest ${KEY_SAMPLE.rowsPerType} payloads of each feedback type ` +
        `(of the first ${KEY_SAMPLE.types} types; payloads over ${KEY_SAMPLE.maxPayloadBytes / 1024} KiB skipped), sorted by path; keys a json_path cannot name (a dot or other characters in them) are left out.`,
    ),
});
export type PayloadKeysResult = z.infer<typeof payloadKeysResult>;
