"use client";

import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { bucketTick, fullTime, statValue } from "@/components/feedback/format";
import type { FlatBucket, StatsColumn } from "@/lib/client/feedback-stats";

// Presentational: the feedback count per bucket, and one chart per metric with a line per
// aggregation or percentile (per category, for a categorical count). Empty buckets are gaps (their avg, min, max and percentiles are
// null), never drawn as zeros; every point has a dot, so a lone value between gaps shows.

const PALETTE = ["#ea580c", "#7c3aed", "#0284c7", "#059669", "#db2777", "#ca8a04", "#4f46e5", "#0d9488"];
const axis = { stroke: "#a1a1aa", fontSize: 11, tickLine: false, axisLine: false } as const;
const compact = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });

function tooltipStyle(timezone: string) {
  return {
    contentStyle: { borderRadius: 8, border: "1px solid #e4e4e7", boxShadow: "0 4px 12px rgb(0 0 0 / 0.08)", fontSize: 12, padding: "6px 10px" },
    labelStyle: { color: "#18181b", fontWeight: 600, marginBottom: 2 },
    labelFormatter: (iso: unknown) => fullTime(String(iso), timezone),
    formatter: (v: unknown) => statValue(v),
  };
}

interface ChartProps {
  buckets: FlatBucket[];
  timezone: string;
  granularity: number;
}

const xAxis = ({ timezone, granularity }: ChartProps, padding = 0) => (
  <XAxis dataKey="timestamp" tickFormatter={(iso: string) => bucketTick(iso, timezone, granularity)} minTickGap={32} padding={{ left: padding, right: padding }} {...axis} />
);

export function CountChart(props: ChartProps) {
  return (
    <div role="img" aria-label="Feedback rows per bucket" className="h-44 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={props.buckets} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid vertical={false} stroke="#f4f4f5" />
          {xAxis(props)}
          <YAxis tickFormatter={(v: number) => compact.format(v)} width={40} allowDecimals={false} {...axis} />
          <Tooltip {...tooltipStyle(props.timezone)} cursor={{ fill: "#f4f4f5" }} />
          <Bar dataKey="count" name="feedback" fill="#a1a1aa" maxBarSize={24} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export function MetricChart({ label, columns, ...props }: ChartProps & { label: string; columns: StatsColumn[] }) {
  return (
    <div role="img" aria-label={label} className="h-56 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={props.buckets} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid vertical={false} stroke="#f4f4f5" />
          {xAxis(props, 8) /* the first and last points' dots clear the edges */}
          <YAxis tickFormatter={(v: number) => statValue(v)} width={44} {...axis} />
          <Tooltip {...tooltipStyle(props.timezone)} />
          <Legend iconType="circle" iconSize={8} wrapperStyle={{ fontSize: 11 }} />
          {columns.map(({ key, stat, category }, i) => (
            // A function, as recharts reads a dotted string key (`p99.9_score`) as a path.
            <Line key={key} type="linear" dataKey={(bucket: FlatBucket) => bucket[key]} name={category ?? stat} stroke={PALETTE[i % PALETTE.length]} strokeWidth={1.5} dot={{ r: 2.5 }} isAnimationActive={false} />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
