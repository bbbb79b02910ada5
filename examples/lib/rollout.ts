// Rollouts as an ART user writes them: sample completions of a task through chat completions
// (the `openai` SDK, logprobs on), score each Choice with the task's reward, and keep the Choice
// itself (with its token_id logprobs) in the trajectory, so the server trains on exactly the
// tokens it sampled.
import type { Anneal, TrajectoryGroup } from "./anneal";
import type { Task } from "./tasks";

export interface SamplingOptions {
  temperature: number;
  maxTokens: number;
  /** Request seed: choice i of a request samples with seed + i. */
  seed?: number;
}

/** n completions of one task from `model` (an inference name) as one trajectory group. */
export async function rolloutGroup(anneal: Anneal, model: string, task: Task, n: number, o: SamplingOptions): Promise<TrajectoryGroup> {
  const completion = await anneal.openai.chat.completions.create({
    model,
    messages: task.messages,
    n,
    temperature: o.temperature,
    max_tokens: o.maxTokens,
    logprobs: true,
    ...(o.seed === undefined ? {} : { seed: o.seed }),
  });
  return {
    trajectories: completion.choices.map((choice) => ({
      messages_and_choices: [...task.messages, choice],
      reward: task.reward(choice),
    })),
  };
}

/** Runs `work` over `items` with at most `limit` in flight, keeping the order of results. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Each task's mean reward over `samples` completions (temperature > 0), or of one greedy reply
 *  (temperature 0). Requests are seeded, so a measurement replays on the same weights. */
export async function rewardPerTask(anneal: Anneal, model: string, tasks: readonly Task[], o: SamplingOptions & { samples: number }): Promise<number[]> {
  const groups = await mapLimit(tasks, 4, (task, i) => rolloutGroup(anneal, model, task, o.samples, { ...o, seed: (o.seed ?? 0) * 100_003 + i * 1_009 }));
  return groups.map((g) => mean(g.trajectories.map((t) => t.reward)));
}

export const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
