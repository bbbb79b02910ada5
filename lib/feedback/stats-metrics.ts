import { badRequest } from "@/lib/contract/errors";
import type { Aggregation, MetricSpec, ValueType } from "./stats-schema";

// A /feedback/stats metric as the query runs it: where its value is in the payload, how the value is
// read, what is computed from it and under which keys the answer carries the results.
//
// Values are read as W&B Weave reads them: `numeric` takes JSON numbers only (not "0.5" or true),
// `boolean` JSON true/false, `categorical` JSON strings; anything else (missing, null, another type)
// is no value. Booleans count as 1 and 0 for sum, avg, min and max (avg is the share of true).
// A categorical metric's `count` is an object: each value (category) → the rows holding it, for the
// MAX_CATEGORIES values most frequent over the window, every bucket listing all of them (0 when
// absent). Percentiles apply to numeric metrics only and are ignored on the others, as in Weave.

/** A json_path as Weave allows it: keys of letters, digits, `_` and spaces, joined by dots. */
const JSON_PATH = /^[A-Za-z0-9_ ]+(\.[A-Za-z0-9_ ]+)*$/;
export const MAX_CATEGORIES = 100;

const APPLICABLE: Record<ValueType, readonly Aggregation[]> = {
  numeric: ["sum", "avg", "min", "max", "count"],
  boolean: ["sum", "avg", "min", "max", "count", "count_true", "count_false"],
  categorical: ["count"],
};

const DEFAULT_AGGREGATIONS: Record<ValueType, Aggregation[]> = {
  numeric: ["avg", "min", "max"],
  boolean: ["count_true", "count_false"],
  categorical: ["count"],
};

export interface Percentile {
  /** 0..1, as percentile_cont takes it. */
  fraction: number;
  /** `p95`, `p99.9`: the window stat's name and the bucket key's prefix. */
  name: string;
}

export interface StatsMetric {
  jsonPath: string;
  /** The payload keys to follow, outermost first. */
  keys: string[];
  /** json_path with dots and spaces as `_`: the suffix of the metric's keys. */
  slug: string;
  valueType: ValueType;
  aggregations: Aggregation[];
  percentiles: Percentile[];
}

export const metricSlug = (jsonPath: string) => jsonPath.replace(/[. ]/g, "_");

/** `p95` for 95, `p99.9` for 99.9 (a whole number without its decimals, as Weave writes it). */
export const percentileName = (p: number) => `p${String(p)}`;

/** The metrics of a request, checked (a 400 names what is wrong) and with their defaults. */
export function resolveMetrics(specs: MetricSpec[]): StatsMetric[] {
  const bySlug = new Map<string, string>();
  return specs.map((spec) => {
    const { json_path: jsonPath, value_type: valueType } = spec;
    if (jsonPath.trim() === "") throw badRequest("json_path cannot be empty.");
    if (!JSON_PATH.test(jsonPath)) {
      throw badRequest(`json_path '${jsonPath}' must be keys of A-Za-z0-9, '_' and spaces joined by dots (no empty key, no array index).`);
    }
    const slug = metricSlug(jsonPath);
    const clash = bySlug.get(slug);
    if (clash !== undefined) throw badRequest(`Metrics '${clash}' and '${jsonPath}' have the same key suffix '${slug}': ask for both in one metric.`);
    bySlug.set(slug, jsonPath);

    const aggregations = spec.aggregations?.length ? [...new Set(spec.aggregations)] : DEFAULT_AGGREGATIONS[valueType];
    const inapplicable = aggregations.filter((a) => !APPLICABLE[valueType].includes(a));
    if (inapplicable.length > 0) {
      throw badRequest(`Aggregation ${inapplicable.join(", ")} does not apply to ${valueType} metric '${jsonPath}' (it takes ${APPLICABLE[valueType].join(", ")}).`);
    }
    const outside = (spec.percentiles ?? []).find((p) => !(p >= 0 && p <= 100));
    if (outside !== undefined) throw badRequest(`Percentile must be between 0 and 100, got ${outside} (metric '${jsonPath}').`);
    const percentiles = valueType === "numeric" ? [...new Set(spec.percentiles ?? [])].map((p) => ({ fraction: p / 100, name: percentileName(p) })) : [];

    return { jsonPath, keys: jsonPath.split("."), slug, valueType, aggregations, percentiles };
  });
}
