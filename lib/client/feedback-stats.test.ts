import { describe, expect, it } from "vitest";
import { bucketsCsv, flattenBucket, metricColumns } from "./feedback-stats";

const score = { json_path: "scores.helpful value", aggregations: ["avg", "max"], percentiles: [50, 99.9] };
const label = { json_path: "label", aggregations: ["count"], percentiles: [] };

describe("metricColumns", () => {
  it("names each aggregation and percentile of a metric as the API's bucket keys", () => {
    expect(metricColumns(score, [])).toEqual([
      { key: "avg_scores_helpful_value", stat: "avg" },
      { key: "max_scores_helpful_value", stat: "max" },
      { key: "p50_scores_helpful_value", stat: "p50" },
      { key: "p99.9_scores_helpful_value", stat: "p99.9" },
    ]);
  });

  it("spreads a categorical count into a column per category", () => {
    const buckets = [{ timestamp: "t", count: 3, count_label: { good: 2, "bad, really": 1 } }];
    expect(metricColumns(label, buckets)).toEqual([
      { key: "count_label.good", stat: "count", category: "good" },
      { key: "count_label.bad, really", stat: "count", category: "bad, really" },
    ]);
    expect(flattenBucket(buckets[0])).toEqual({ timestamp: "t", count: 3, "count_label.good": 2, "count_label.bad, really": 1 });
  });
});

describe("bucketsCsv", () => {
  const metrics = [
    { json_path: "score", aggregations: ["avg"], percentiles: [95] },
    { json_path: "ok", aggregations: ["count_true"], percentiles: [] },
  ];

  it("writes a header of timestamp, count and the metrics' keys, then a line per bucket, nulls empty", () => {
    const buckets = [
      { timestamp: "2026-03-08T05:00:00Z", count: 2, avg_score: 3.5, p95_score: 4, count_true_ok: 1 },
      { timestamp: "2026-03-08T06:00:00Z", count: 0, avg_score: null, p95_score: null, count_true_ok: 0 },
    ];
    expect(bucketsCsv(buckets, metrics)).toBe(
      "timestamp,count,avg_score,p95_score,count_true_ok\r\n2026-03-08T05:00:00Z,2,3.5,4,1\r\n2026-03-08T06:00:00Z,0,,,0\r\n",
    );
  });

  it("gives a categorical count a quoted column per category, and lists a column two metrics share once", () => {
    const buckets = [{ timestamp: "2026-03-08T05:00:00Z", count: 1, avg_score: 2, p95_score: 2, count_true_ok: 0, count_label: { good: 1, 'said "no"': 0 } }];
    expect(bucketsCsv(buckets, [...metrics, label, metrics[0]])).toBe(
      'timestamp,count,avg_score,p95_score,count_true_ok,count_label.good,"count_label.said ""no"""\r\n2026-03-08T05:00:00Z,1,2,2,0,1,0\r\n',
    );
  });
});
