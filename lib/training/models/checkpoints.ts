import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { pageBySeq, type PageQuery } from "@/lib/contract/pagination";
import { findModelForCaller } from "@/lib/training/models/find-model";
import { refuseWhileTraining } from "@/lib/training/jobs/active-jobs";
import { removeCheckpointFiles } from "@/lib/training/jobs/job-files";

type Metrics = Record<string, number>;

/** GET .../checkpoints: by step (asc default); metrics merge the checkpoint's own (training) and
 *  those logged at its step. */
export async function listCheckpoints(principal: Principal, modelId: string, query: PageQuery) {
  await findModelForCaller(principal, modelId, "use");
  const db = getDb();
  return pageBySeq({
    query,
    findSeq: async (id) => (await db.checkpoint.findFirst({ where: { id, modelId }, select: { step: true } }))?.step,
    findRows: async ({ seq, order, take }) => {
      const rows = await db.checkpoint.findMany({ where: { modelId, step: seq }, orderBy: { step: order }, take });
      const logged = await db.modelStepMetrics.findMany({ where: { modelId, step: { in: rows.map((r) => r.step) } } });
      const loggedByStep = new Map(logged.map((l) => [l.step, l.metrics as Metrics]));
      return rows.map((c) => ({ ...c, logged: loggedByStep.get(c.step) }));
    },
    toDto: (c) => ({
      id: c.id,
      step: c.step,
      metrics: { ...(c.metrics as Metrics), ...c.logged },
      created_at: c.createdAt.toISOString(),
    }),
  });
}

/** DELETE .../checkpoints {steps}: deletes those that exist (and their files); the model's
 *  current_step never goes back. */
export async function deleteCheckpoints(principal: Principal, modelId: string, steps: number[]) {
  await findModelForCaller(principal, modelId, "use");
  const wanted = [...new Set(steps)];
  const found = await getDb().checkpoint.findMany({ where: { modelId, step: { in: wanted } }, select: { step: true, file: true } });
  const newest = await getDb().checkpoint.findFirst({ where: { modelId }, orderBy: { step: "desc" }, select: { step: true } });
  // A queued or running job trains from the newest checkpoint; the others may go.
  if (newest && found.some((c) => c.step === newest.step)) await refuseWhileTraining(modelId, `delete step ${newest.step}, the newest checkpoint`);
  await getDb().checkpoint.deleteMany({ where: { modelId, step: { in: found.map((c) => c.step) } } });
  for (const c of found) removeCheckpointFiles(c.file);
  const foundSteps = new Set(found.map((c) => c.step));
  return { deleted_count: found.length, not_found_steps: wanted.filter((s) => !foundSteps.has(s)).sort((a, b) => a - b) };
}
