"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { MetricFamily } from "@/components/models/metric-series";

// Presentational: one small line chart per metric, a line per split, over steps. The data is
// shaped by metricFamilies(); these only draw it.

const SPLIT_COLORS: Record<string, string> = { train: "#ea580c", val: "#7c3aed", test: "#0284c7" };
const PALETTE = ["#059669", "#db2777", "#ca8a04", "#4f46e5", "#0d9488"];
const colorFor = (key: string, index: number) => SPLIT_COLORS[key.split("/")[0]] ?? PALETTE[index % PALETTE.length];

const axis = { stroke: "#a1a1aa", fontSize: 11, tickLine: false, axisLine: false } as const;
const value = new Intl.NumberFormat("en", { maximumSignificantDigits: 4 });
const tooltipStyle = {
  contentStyle: { borderRadius: 8, border: "1px solid #e4e4e7", boxShadow: "0 4px 12px rgb(0 0 0 / 0.08)", fontSize: 12, padding: "6px 10px" },
  labelStyle: { color: "#18181b", fontWeight: 600, marginBottom: 2 },
  labelFormatter: (step: unknown) => `Step ${String(step)}`,
  formatter: (v: unknown) => value.format(Number(v)),
};

export function MetricChart({ family }: { family: MetricFamily }) {
  const fewPoints = family.points.length <= 30;
  return (
    <figure className="rounded-lg border border-zinc-100 p-3">
      <figcaption className="mb-1 font-mono text-xs font-medium text-zinc-700">{family.name}</figcaption>
      <div role="img" aria-label={`${family.name} by step`} className="h-44 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={family.points} margin={{ top: 6, right: 10, bottom: 0, left: 0 }}>
            <CartesianGrid vertical={false} stroke="#f4f4f5" />
            <XAxis dataKey="step" type="number" domain={["dataMin", "dataMax"]} allowDecimals={false} {...axis} />
            <YAxis width={44} tickFormatter={(v: number) => value.format(v)} {...axis} />
            <Tooltip {...tooltipStyle} />
            <Legend iconType="circle" iconSize={8} wrapperStyle={{ fontSize: 11 }} />
            {family.keys.map((key, i) => (
              <Line key={key} type="linear" dataKey={key} stroke={colorFor(key, i)} strokeWidth={1.5} dot={fewPoints ? { r: 2.5 } : false} connectNulls isAnimationActive={false} />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
