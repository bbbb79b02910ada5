import type { UsageRow } from "@/components/inference/queries";

// GET /v1/usage rows (one per day, project and model) shaped once for the charts and the table:
// a row per day with one value per project (every day of the range, zeros included), totals per
// project and model, and overall totals.

export type TokenMetric = "total_tokens" | "prompt_tokens" | "completion_tokens";

export interface DayPoint {
  day: string;
  [project: string]: number | string;
}

export interface UsageSeries {
  projects: string[];
  days: { tokens: Record<TokenMetric, DayPoint[]>; requests: DayPoint[] };
  byProjectModel: (Omit<UsageRow, "day" | "team"> & { project: string })[];
  totals: { requests: number; errors: number; prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

export function daysBetween(start: string, end: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${start}T00:00:00Z`); t <= Date.parse(`${end}T00:00:00Z`); t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

export function usageSeries(rows: UsageRow[], start: string, end: string): UsageSeries {
  const projectOf = (r: UsageRow) => `${r.team}/${r.project}`;
  const projects = [...new Set(rows.map(projectOf))].sort();
  const days = daysBetween(start, end);
  const empty = () => new Map(days.map((day) => [day, Object.fromEntries([["day", day], ...projects.map((p) => [p, 0])]) as DayPoint]));
  const series = { total_tokens: empty(), prompt_tokens: empty(), completion_tokens: empty(), requests: empty() };
  const table = new Map<string, UsageSeries["byProjectModel"][number]>();
  const totals = { requests: 0, errors: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  for (const row of rows) {
    const project = projectOf(row);
    for (const key of ["total_tokens", "prompt_tokens", "completion_tokens", "requests"] as const) {
      const point = series[key].get(row.day);
      if (point) point[project] = (point[project] as number) + row[key];
    }
    const id = `${project}\u0000${row.model}`;
    const entry = table.get(id) ?? { project, model: row.model, requests: 0, errors: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    for (const key of ["requests", "errors", "prompt_tokens", "completion_tokens", "total_tokens"] as const) {
      entry[key] += row[key];
      totals[key] += row[key];
    }
    table.set(id, entry);
  }
  return {
    projects,
    days: {
      tokens: {
        total_tokens: [...series.total_tokens.values()],
        prompt_tokens: [...series.prompt_tokens.values()],
        completion_tokens: [...series.completion_tokens.values()],
      },
      requests: [...series.requests.values()],
    },
    byProjectModel: [...table.values()].sort((a, b) => b.total_tokens - a.total_tokens),
    totals,
  };
}
