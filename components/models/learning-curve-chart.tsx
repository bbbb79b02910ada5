"use client";

import Link from "next/link";
import { CartesianGrid, Legend, Line, LineChart, ReferenceArea, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { spanAt, type JobSpan } from "@/lib/client/learning-curve";
import type { MetricFamily } from "@/lib/client/metric-series";

// Presentational: one metric across all of a model's jobs, on the global gradient step, a line per
// key (`train/reward`, `val/reward`, the per-step `reward`). Shaded bands mark each job's steps; the
// ruler under the plot names them and links to each job's page. The data is shaped by
// lib/client/learning-curve.ts; this only draws it.

const SPLIT_COLORS: Record<string, string> = { train: "#ea580c", val: "#7c3aed", test: "#0284c7" };
const PALETTE = ["#059669", "#db2777", "#ca8a04", "#4f46e5", "#0d9488"];
const colorFor = (key: string, index: number) => SPLIT_COLORS[key.split("/")[0]] ?? PALETTE[index % PALETTE.length];

/** The plot's insets, shared by the chart and the ruler so the ruler's bands line up with it. */
const Y_AXIS_WIDTH = 44;
const RIGHT_MARGIN = 12;

const axis = { stroke: "#a1a1aa", fontSize: 11, tickLine: false, axisLine: false } as const;
const value = new Intl.NumberFormat("en", { maximumSignificantDigits: 4 });
const BAND_FILLS = ["#f4f4f5", "#fafafa"];

function stepLabel(spans: JobSpan[], step: number): string {
  if (step === 0) return "Step 0 · base model";
  const span = spanAt(spans, step);
  return span ? `Step ${step} · ${span.label}` : `Step ${step}`;
}

export function LearningCurveChart({ family, spans, end }: { family: MetricFamily; spans: JobSpan[]; end: number }) {
  return (
    <figure className="space-y-1">
      <div role="img" aria-label={`${family.name} across jobs by step`} className="h-64 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={family.points} margin={{ top: 8, right: RIGHT_MARGIN, bottom: 0, left: 0 }}>
            {spans.map((span, i) =>
              span.to > span.from ? (
                <ReferenceArea key={span.id} x1={span.from} x2={span.to} fill={BAND_FILLS[i % 2]} fillOpacity={1} stroke="#e4e4e7" strokeOpacity={0.8} />
              ) : (
                <ReferenceLine key={span.id} x={span.from} stroke="#d4d4d8" strokeDasharray="3 3" />
              ),
            )}
            <CartesianGrid vertical={false} stroke="#e4e4e7" strokeOpacity={0.6} />
            <XAxis dataKey="step" type="number" domain={[0, end]} allowDecimals={false} {...axis} />
            <YAxis width={Y_AXIS_WIDTH} tickFormatter={(v: number) => value.format(v)} domain={["auto", "auto"]} {...axis} />
            <Tooltip
              contentStyle={{ borderRadius: 8, border: "1px solid #e4e4e7", boxShadow: "0 4px 12px rgb(0 0 0 / 0.08)", fontSize: 12, padding: "6px 10px" }}
              labelStyle={{ color: "#18181b", fontWeight: 600, marginBottom: 2 }}
              labelFormatter={(step: unknown) => stepLabel(spans, Number(step))}
              formatter={(v: unknown) => value.format(Number(v))}
            />
            <Legend iconType="circle" iconSize={8} wrapperStyle={{ fontSize: 11 }} />
            {family.keys.map((key, i) => {
              const sparse = family.points.filter((p) => key in p).length <= 40;
              return <Line key={key} type="linear" dataKey={key} stroke={colorFor(key, i)} strokeWidth={1.5} dot={sparse ? { r: 2.5 } : false} connectNulls isAnimationActive={false} />;
            })}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <JobRuler spans={spans} end={end} />
    </figure>
  );
}

/** Each job's span under the plot, at the same place as its band: its label, a link to its page. */
function JobRuler({ spans, end }: { spans: JobSpan[]; end: number }) {
  if (spans.length === 0) return null;
  return (
    <nav aria-label="Jobs on this chart" className="relative h-6" style={{ marginLeft: Y_AXIS_WIDTH, marginRight: RIGHT_MARGIN }}>
      {spans.map((span, i) => {
        const steps = span.to > span.from ? `steps ${span.from + 1}–${span.to}` : "no steps yet";
        const wrote = span.checkpointStep !== null ? `, wrote checkpoint step ${span.checkpointStep}` : span.status === "running" ? ", running" : "";
        return (
          <Link
            key={span.id}
            href={`/jobs/${span.id}`}
            title={`${span.label}: ${steps}${wrote}`}
            aria-label={`${span.label}: ${steps}${wrote}`}
            data-testid="curve-job"
            className={`absolute top-0 flex h-6 min-w-1 items-center justify-center truncate rounded-sm border border-zinc-200 px-1 font-mono text-[10px] text-zinc-600 hover:border-brand-400 hover:text-brand-700 ${i % 2 ? "bg-zinc-50" : "bg-zinc-100"}`}
            style={{ left: `${(span.from / end) * 100}%`, width: `${((span.to - span.from) / end) * 100}%` }}
          >
            {span.label}
          </Link>
        );
      })}
    </nav>
  );
}
