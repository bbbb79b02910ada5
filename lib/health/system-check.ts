import { getDatabase } from "@/lib/db/client";
import type { Check, SystemCheck } from "@/lib/health/operations";
import { probeEmbeddedEngine } from "@/lib/health/engine-probe";

// Real checks, each timed: a database round trip and an engine probe. A dependency that is not
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
  const result: SystemCheck = {
    api: true,
    database: database.success,
    database_check: database,
    // The job queue lives in the database; no job runner is registered in this version yet.
    cpu_queue: skipped(),
    gpu_queue: skipped(),
    engine: { ...engine, backend: engine.success ? "node-llama-cpp (cpu)" : null },
  };
  const healthy = [database, engine].every((c) => c.success);
  return { healthy, result };
}
