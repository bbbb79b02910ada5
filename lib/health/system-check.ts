import { getDatabase } from "@/lib/db/client";
import type { Check, SystemCheck } from "@/lib/health/operations";
import { probeEmbeddedEngine } from "@/lib/health/engine-probe";
import { describeQueueProblem, queueHealth, type QueueHealth } from "@/lib/training/jobs/queue-health";

// Real checks, each timed: a database round trip, the job queue (counts and live workers) and an
// engine probe. A dependency that is not
// configured reports {success: true, skipped: true}; only a configured one that fails makes the
// whole check unhealthy (503).

async function timed(fn: () => Promise<unknown>): Promise<Check> {
  const start = performance.now();
  try {
    await fn();
    return { success: true, duration: (performance.now() - start) / 1000, error: null };
  } catch (error) {
    return { success: false, duration: (performance.now() - start) / 1000, error: (error as Error).message };
  }
}

const skipped = (): Check => ({ success: true, duration: 0, error: null, skipped: true });

export async function runSystemCheck(): Promise<{ healthy: boolean; result: SystemCheck }> {
  const database = await timed(() => getDatabase().sql.query("SELECT 1"));
  const engine = await timed(() => probeEmbeddedEngine());
  let queue: QueueHealth | null = null;
  const cpuQueue = await timed(async () => {
    queue = await queueHealth();
    const problem = describeQueueProblem(queue);
    if (problem) throw new Error(problem);
  });
  const result: SystemCheck = {
    api: true,
    database: database.success,
    database_check: database,
    cpu_queue: { ...cpuQueue, ...(queue ?? {}) },
    // Anneal's trainer runs on CPU; there are no GPU workers to check.
    gpu_queue: skipped(),
    engine: { ...engine, backend: engine.success ? "node-llama-cpp (cpu)" : null },
  };
  const healthy = [database, engine, cpuQueue].every((c) => c.success);
  return { healthy, result };
}
