"use client";

import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { StepPoint } from "@/lib/client/job-progress";

// Presentational: one small line chart per metric over gradient steps (the data is shaped by
// gradientSteps/chartedMetrics in lib/client/job-progress.ts).

const COLORS: Record<string, string> = { loss: "#ea580c", "val/loss": "#db2777", "val/accuracy": "#0d9488", reward: "#059669", entropy: "#7c3aed", grad_norm: "#0284c7" };
const axis = { stroke: "#a1a1aa", fontSize: 11, tickLine: false, axisLine: false } as const;
const value = new Intl.NumberFormat("en", { maximumSignificantDigits: 4 });

export function StepChart({ metric, points }: { metric: string; points: StepPoint[] }) {
  const data = points.filter((p) => metric in p);
  const last = data.at(-1)?.[metric];
  return (
    <figure className="rounded-lg border border-zinc-100 p-3" data-testid={`chart-${metric}`}>
      <figcaption className="mb-1 flex items-baseline justify-between font-mono text-xs font-medium text-zinc-700">
        {metric}
        {last !== undefined && <span className="text-zinc-500 tabular-nums">{value.format(last)}</span>}
      </figcaption>
      <div role="img" aria-label={`${metric} by step`} className="h-40 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} margin={{ top: 6, right: 10, bottom: 0, left: 0 }}>
            <CartesianGrid vertical={false} stroke="#f4f4f5" />
            <XAxis dataKey="step" type="number" domain={["dataMin", "dataMax"]} allowDecimals={false} {...axis} />
            <YAxis width={44} tickFormatter={(v: number) => value.format(v)} domain={["auto", "auto"]} {...axis} />
            <Tooltip
              contentStyle={{ borderRadius: 8, border: "1px solid #e4e4e7", fontSize: 12, padding: "6px 10px" }}
              labelFormatter={(step: unknown) => `Step ${String(step)}`}
              formatter={(v: unknown) => value.format(Number(v))}
            />
            <Line type="linear" dataKey={metric} stroke={COLORS[metric] ?? "#4f46e5"} strokeWidth={1.5} dot={data.length <= 40 ? { r: 2 } : false} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
