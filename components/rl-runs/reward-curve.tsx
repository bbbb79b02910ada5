"use client";

import { Area, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { RlRun } from "@/components/rl-runs/queries";

// Presentational: a run's rollout reward per iteration — the mean, and a band of ± one standard
// deviation over its replies. Each point is sampled from the checkpoint the previous iteration wrote.

const axis = { stroke: "#a1a1aa", fontSize: 11, tickLine: false, axisLine: false } as const;
const value = new Intl.NumberFormat("en", { maximumFractionDigits: 3 });

export function RewardCurve({ history }: { history: RlRun["history"] }) {
  const data = history.map((h) => ({ iteration: h.iteration + 1, reward: h.reward_mean, band: [h.reward_mean - h.reward_std, h.reward_mean + h.reward_std] }));
  const last = history.at(-1);
  return (
    <figure className="rounded-lg border border-zinc-100 p-3" data-testid="reward-curve" data-points={data.length}>
      <figcaption className="mb-1 flex items-baseline justify-between font-mono text-xs font-medium text-zinc-700">
        reward (mean ± std per iteration)
        {last && <span className="text-zinc-500 tabular-nums">{value.format(last.reward_mean)}</span>}
      </figcaption>
      <div role="img" aria-label="Reward by iteration" className="h-56 w-full">
        {data.length === 0 ? (
          <p className="flex h-full items-center justify-center text-xs text-zinc-400">The first iteration’s rewards appear when its rollouts are scored.</p>
        ) : (
          <ResponsiveContainer width="100%" height="100%">
            <ComposedChart data={data} margin={{ top: 6, right: 10, bottom: 0, left: 0 }}>
              <CartesianGrid vertical={false} stroke="#f4f4f5" />
              <XAxis dataKey="iteration" type="number" domain={[1, "dataMax"]} allowDecimals={false} {...axis} />
              <YAxis width={44} tickFormatter={(v: number) => value.format(v)} domain={["auto", "auto"]} {...axis} />
              <Tooltip
                contentStyle={{ borderRadius: 8, border: "1px solid #e4e4e7", fontSize: 12, padding: "6px 10px" }}
                labelFormatter={(i: unknown) => `Iteration ${String(i)}`}
                formatter={(v: unknown, name: unknown) => (Array.isArray(v) ? [`${value.format(v[0])} – ${value.format(v[1])}`, "± std"] : [value.format(Number(v)), String(name)])}
              />
              <Area dataKey="band" stroke="none" fill="#059669" fillOpacity={0.12} isAnimationActive={false} />
              <Line type="linear" dataKey="reward" stroke="#059669" strokeWidth={1.5} dot={{ r: 2.5 }} isAnimationActive={false} />
            </ComposedChart>
          </ResponsiveContainer>
        )}
      </div>
    </figure>
  );
}
