import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { findModelForCaller } from "@/lib/training/models/find-model";

type Metrics = Record<string, number>;

/** GET .../metrics: every step's metrics for charts, by step. A step's checkpoint metrics (from
 *  training) and logged ones (POST .../log) merge as in the checkpoint list; logged metrics
 *  outlive a deleted checkpoint, so its step stays on the chart. */
export async function getModelMetrics(principal: Principal, modelId: string) {
  await findModelForCaller(principal, modelId, "use");
  const db = getDb();
  const [checkpoints, logged] = await Promise.all([
    db.checkpoint.findMany({ where: { modelId }, select: { step: true, metrics: true } }),
    db.modelStepMetrics.findMany({ where: { modelId }, select: { step: true, metrics: true } }),
  ]);
  const byStep = new Map<number, Metrics>();
  for (const row of [...checkpoints, ...logged]) byStep.set(row.step, { ...byStep.get(row.step), ...(row.metrics as Metrics) });
  return {
    data: [...byStep.entries()].sort(([a], [b]) => a - b).map(([step, metrics]) => ({ step, metrics })),
  };
}
