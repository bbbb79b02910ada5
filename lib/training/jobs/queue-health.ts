import { getEnv } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";

export interface QueueHealth {
  /** Training processes seen within a lease length (they check in at every poll and heartbeat),
   *  remote workers included (at every lease request and heartbeat). */
  workers: number;
  queued: number;
  running: number;
}

/** The job queue's round trip: its counts and the live workers. */
export async function queueHealth(): Promise<QueueHealth> {
  const seenSince = new Date(Date.now() - getEnv().ANNEAL_JOB_LEASE_MS);
  const [local, remote, counts] = await Promise.all([
    getDb().trainingWorker.count({ where: { lastSeenAt: { gte: seenSince } } }),
    getDb().remoteWorker.count({ where: { lastSeenAt: { gte: seenSince }, key: { revokedAt: null } } }),
    getDb().trainingJob.groupBy({ by: ["status"], where: { status: { in: ["queued", "running"] } }, _count: true }),
  ]);
  const count = (status: string) => counts.find((c) => c.status === status)?._count ?? 0;
  return { workers: local + remote, queued: count("queued"), running: count("running") };
}

/** Jobs are waiting and nothing will ever train them: the one queue state that is a failure. */
export function describeQueueProblem(health: QueueHealth): string | null {
  if (health.workers > 0 || health.queued === 0) return null;
  return `${health.queued} training job(s) queued and no training worker is running: start Anneal with ANNEAL_TRAINING_CONCURRENCY ≥ 1 (the default), run npm run worker, or start a remote worker (docs/workers.md).`;
}
