// In-process wake-up of training runners: a job queued by this process starts at once instead of
// at the runner's next poll. Kept apart from runner.ts so that route code does not import it.

export interface Wakeable {
  wake(): void;
}

const runners = ((globalThis as { __annealRunners?: Set<Wakeable> }).__annealRunners ??= new Set());

export function registerLocalRunner(runner: Wakeable): () => void {
  runners.add(runner);
  return () => runners.delete(runner);
}

export function wakeLocalRunners(): void {
  for (const runner of runners) runner.wake();
}
