// Shapes metrics by step for charts, once: metric keys are split-prefixed (`train/reward`,
// `val/reward`, `train/loss`), and one chart shows one metric across its splits.

export interface StepMetrics {
  step: number;
  metrics: Record<string, number>;
}

export interface MetricFamily {
  /** The metric without its split: `reward`, `loss`, ... */
  name: string;
  /** The full keys drawn as lines, e.g. `train/reward`, `val/reward`. */
  keys: string[];
  /** One point per step that has any of the keys. */
  points: ({ step: number } & Record<string, number>)[];
}

const FIRST = ["reward", "accuracy", "loss"];
const SPLIT_ORDER = ["train", "val", "test"];

export const metricName = (key: string) => (key.includes("/") ? key.slice(key.indexOf("/") + 1) : key);
export const metricSplit = (key: string) => (key.includes("/") ? key.slice(0, key.indexOf("/")) : "");

const rank = (list: string[], value: string) => (list.includes(value) ? list.indexOf(value) : list.length);

export function metricFamilies(steps: StepMetrics[]): MetricFamily[] {
  const keysByName = new Map<string, Set<string>>();
  for (const { metrics } of steps) {
    for (const key of Object.keys(metrics)) {
      const name = metricName(key);
      keysByName.set(name, (keysByName.get(name) ?? new Set()).add(key));
    }
  }
  const names = [...keysByName.keys()].sort((a, b) => rank(FIRST, a) - rank(FIRST, b) || a.localeCompare(b));
  return names.map((name) => {
    const keys = [...keysByName.get(name)!].sort((a, b) => rank(SPLIT_ORDER, metricSplit(a)) - rank(SPLIT_ORDER, metricSplit(b)) || a.localeCompare(b));
    const points = steps
      .filter(({ metrics }) => keys.some((k) => k in metrics))
      .map(({ step, metrics }) => ({ step, ...Object.fromEntries(keys.filter((k) => k in metrics).map((k) => [k, metrics[k]])) }));
    return { name, keys, points };
  });
}

/** The splits that have metrics (for the trajectory-group filter). */
export function metricSplits(steps: StepMetrics[]): string[] {
  const splits = new Set(steps.flatMap(({ metrics }) => Object.keys(metrics).map(metricSplit).filter(Boolean)));
  return [...splits].sort((a, b) => rank(SPLIT_ORDER, a) - rank(SPLIT_ORDER, b) || a.localeCompare(b));
}
