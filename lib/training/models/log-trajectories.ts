import type { Principal } from "@/lib/auth/principal";
import { toStorableJson } from "@/lib/call-log/call-recorder";
import { getDb } from "@/lib/db/client";
import { findModelForCaller } from "@/lib/training/models/find-model";
import type { TrajectoryGroup } from "@/lib/training/trajectories/schemas";

// POST .../log: stores the groups (browsable, usable as an RL job's input) and attaches their
// averaged metrics to the model's current step (ART's LocalBackend `_log`): `<split>/reward`,
// `<split>/reward_std_dev` (mean of per-group population std), `<split>/exception_rate`, and
// `<split>/<metric>` for every trajectory metric.

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const populationStd = (xs: number[]) => {
  const m = mean(xs);
  return Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
};

export function logMetrics(split: string, groups: TrajectoryGroup[]): Record<string, number> {
  const trajectories = groups.flatMap((g) => g.trajectories);
  const exceptions = groups.reduce((n, g) => n + (Array.isArray(g.exceptions) ? g.exceptions.length : 0), 0);
  const out: Record<string, number> = {};
  if (trajectories.length + exceptions > 0) out[`${split}/exception_rate`] = exceptions / (trajectories.length + exceptions);
  if (trajectories.length === 0) return out;
  out[`${split}/reward`] = mean(trajectories.map((t) => t.reward));
  const nonEmpty = groups.filter((g) => g.trajectories.length > 0);
  out[`${split}/reward_std_dev`] = mean(nonEmpty.map((g) => populationStd(g.trajectories.map((t) => t.reward))));
  const values = new Map<string, number[]>();
  for (const t of trajectories) {
    for (const [key, value] of Object.entries((t.metrics as Record<string, unknown> | undefined) ?? {})) {
      const number = typeof value === "boolean" ? Number(value) : value;
      if (typeof number === "number" && Number.isFinite(number)) values.set(key, [...(values.get(key) ?? []), number]);
    }
  }
  for (const [key, xs] of values) out[`${split}/${key}`] = mean(xs);
  return out;
}

export async function logTrajectories(principal: Principal, modelId: string, split: string, groups: TrajectoryGroup[]): Promise<Record<string, never>> {
  const model = await findModelForCaller(principal, modelId, "use");
  const metrics = logMetrics(split, groups);
  const step = model.currentStep;
  const db = getDb();
  await db.$transaction(async (tx) => {
    if (groups.length) {
      await tx.loggedTrajectoryGroup.createMany({
        data: groups.map((g) => ({
          modelId,
          split,
          step,
          trajectories: toStorableJson(g.trajectories),
          rewardMean: g.trajectories.length ? mean(g.trajectories.map((t) => t.reward)) : 0,
        })),
      });
    }
    const existing = await tx.modelStepMetrics.findUnique({ where: { modelId_step: { modelId, step } } });
    const merged = { ...((existing?.metrics as Record<string, number>) ?? {}), ...metrics };
    await tx.modelStepMetrics.upsert({
      where: { modelId_step: { modelId, step } },
      create: { modelId, step, metrics: merged },
      update: { metrics: merged },
    });
  });
  return {};
}
