"use client";

import { Area, AreaChart, Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { DayPoint } from "@/components/usage/usage-series";

// Presentational charts: a stacked series per project over days. The data is shaped by
// usageSeries(); these only draw it.

const PALETTE = ["#ea580c", "#7c3aed", "#0284c7", "#059669", "#db2777", "#ca8a04", "#4f46e5", "#0d9488"];
export const projectColor = (index: number) => PALETTE[index % PALETTE.length];

const compact = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });
const full = new Intl.NumberFormat("en");
const shortDay = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString("en", { month: "short", day: "numeric", timeZone: "UTC" });

const axis = { stroke: "#a1a1aa", fontSize: 11, tickLine: false, axisLine: false } as const;
const tooltipStyle = {
  contentStyle: { borderRadius: 8, border: "1px solid #e4e4e7", boxShadow: "0 4px 12px rgb(0 0 0 / 0.08)", fontSize: 12, padding: "6px 10px" },
  labelStyle: { color: "#18181b", fontWeight: 600, marginBottom: 2 },
  labelFormatter: (day: unknown) => shortDay(String(day)),
  formatter: (value: unknown) => full.format(Number(value)),
};

export function ProjectAreaChart({ data, projects, label }: { data: DayPoint[]; projects: string[]; label: string }) {
  return (
    <div role="img" aria-label={label} className="h-64 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid vertical={false} stroke="#f4f4f5" />
          <XAxis dataKey="day" tickFormatter={shortDay} minTickGap={24} {...axis} />
          <YAxis tickFormatter={(v: number) => compact.format(v)} width={44} allowDecimals={false} {...axis} />
          <Tooltip {...tooltipStyle} />
          <Legend iconType="circle" iconSize={8} wrapperStyle={{ fontSize: 12 }} />
          {projects.map((project, i) => (
            <Area key={project} type="linear" dataKey={project} stackId="1" stroke={projectColor(i)} fill={projectColor(i)} fillOpacity={0.28} strokeWidth={1.5} isAnimationActive={false} />
          ))}
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}

export function ProjectBarChart({ data, projects, label }: { data: DayPoint[]; projects: string[]; label: string }) {
  return (
    <div role="img" aria-label={label} className="h-64 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid vertical={false} stroke="#f4f4f5" />
          <XAxis dataKey="day" tickFormatter={shortDay} minTickGap={24} {...axis} />
          <YAxis tickFormatter={(v: number) => compact.format(v)} width={44} allowDecimals={false} {...axis} />
          <Tooltip {...tooltipStyle} cursor={{ fill: "#f4f4f5" }} />
          <Legend iconType="circle" iconSize={8} wrapperStyle={{ fontSize: 12 }} />
          {projects.map((project, i) => (
            <Bar key={project} dataKey={project} stackId="1" fill={projectColor(i)} maxBarSize={28} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
