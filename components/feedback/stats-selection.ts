import { z } from "zod";
import { TIME_PRESETS, type TimePreset } from "@/components/calls/queries";
import { metricSpecSchema, type Aggregation, type ValueType } from "@/lib/feedback/stats-schema";

// What the Feedback stats tab shows, as its URL holds it (so a chart can be shared and survives a
// reload): the project, the time range (a rolling preset, or a custom start and end), the filters,
// granularity, timezone and the metrics. Parsing never fails: a value that does not parse is left
// at its default.

export type { ValueType };

/** The aggregations the builder offers per value type (boolean's avg is the share of true), and
 *  what a new metric of the type starts with: the API's defaults. */
export const AGGREGATIONS: Record<ValueType, { offered: Aggregation[]; defaults: Aggregation[] }> = {
  numeric: { offered: ["avg", "min", "max", "sum", "count"], defaults: ["avg", "min", "max"] },
  boolean: { offered: ["count_true", "count_false", "avg", "count"], defaults: ["count_true", "count_false"] },
  categorical: { offered: ["count"], defaults: ["count"] },
};

/** The API's metric, as the builder always spells it out (so the URL says what is charted). */
const builtMetricSchema = metricSpecSchema.required({ aggregations: true, percentiles: true });
export type MetricSpec = z.output<typeof builtMetricSchema>;

export type RangeChoice = TimePreset | "custom";
export const DEFAULT_RANGE: TimePreset = "24h";

export interface StatsSelection {
  project: string | undefined;
  range: RangeChoice;
  /** ISO 8601, for a custom range. */
  start?: string;
  end?: string;
  feedback_type?: string;
  trigger_ref?: string;
  /** Seconds; undefined = the API's automatic choice. */
  granularity?: number;
  /** IANA zone; undefined = the browser's. */
  timezone?: string;
  metrics: MetricSpec[];
}

const isPreset = (value: string | null): value is TimePreset => value !== null && value in TIME_PRESETS;

function parseMetrics(text: string | null): MetricSpec[] {
  if (!text) return [];
  try {
    const parsed = z.array(builtMetricSchema).safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

export function selectionFromParams(params: URLSearchParams): StatsSelection {
  const range = params.get("range");
  const granularity = Number(params.get("granularity"));
  return {
    project: params.get("project") || undefined,
    range: range === "custom" || isPreset(range) ? range : DEFAULT_RANGE,
    start: params.get("start") || undefined,
    end: params.get("end") || undefined,
    feedback_type: params.get("feedback_type") || undefined,
    trigger_ref: params.get("trigger_ref") || undefined,
    granularity: Number.isInteger(granularity) && granularity >= 1 ? granularity : undefined,
    timezone: params.get("timezone") || undefined,
    metrics: parseMetrics(params.get("metrics")),
  };
}

/** Writes a change into the URL's parameters (other parameters, such as `tab`, are kept). */
export function applyToParams(params: URLSearchParams, patch: Partial<StatsSelection>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [name, value] of Object.entries(patch)) {
    const text = name === "metrics" ? ((value as MetricSpec[]).length ? JSON.stringify(value) : "") : value === undefined ? "" : String(value);
    if (text) next.set(name, text);
    else next.delete(name);
  }
  return next;
}

/** The time range to ask for now: a preset ends now (open-ended, so new feedback falls in it). */
export function resolveRange(selection: StatsSelection, now = Date.now()): { start: string; end?: string } | null {
  if (selection.range !== "custom") return { start: new Date(now - TIME_PRESETS[selection.range]).toISOString() };
  if (!selection.start || !selection.end || Date.parse(selection.end) <= Date.parse(selection.start)) return null;
  return { start: selection.start, end: selection.end };
}

/** A metric for a payload key, with its value type's default aggregations. */
export function newMetric(json_path: string, value_type: ValueType): MetricSpec {
  return { json_path, value_type, aggregations: [...AGGREGATIONS[value_type].defaults], percentiles: value_type === "numeric" ? [50, 95] : [] };
}
