// bench:learn, RL part: per seed, a fresh model from the base, held-out reward before, a series
// of RL jobs (rollouts → trajectory groups → job → ART's event loop → the new step), held-out
// reward after. Everything goes through the HTTP API, as an ART user's code does.
import { Anneal, inferenceName, type RlConfig, type TrajectoryGroup } from "../../examples/lib/anneal";
import { mapLimit, mean, rewardPerTask, rolloutGroup } from "../../examples/lib/rollout";
import { corpusTasks, type RewardKind, type Task } from "../../examples/lib/tasks";
import { wordTasks, type WordTaskName } from "../../examples/lib/word-tasks";
import type { TaskFamily } from "../../lib/engine/corpus/example";
import type { Split } from "../../lib/engine/corpus/generate";

export interface RlSettings {
  baseModel: string;
  /** A task on words (examples/lib/word-tasks.ts, exact answer), or corpus families with `reward`. */
  task: WordTaskName | "corpus";
  families: TaskFamily[];
  /** Curriculum levels of the corpus families (version 2); undefined: version 1's mix. */
  levels?: number[];
  reward: RewardKind;
  jobs: number;
  groupsPerJob: number;
  groupSize: number;
  config: RlConfig;
  maxTokens: number;
  heldoutPrompts: number;
  /** Samples per held-out prompt at temperature 1 (the training temperature). */
  heldoutSamples: number;
  pollMs: number;
}

export interface Measurement {
  /** Mean reward at temperature 1, and per held-out prompt (for paired comparisons). */
  sampled: number;
  perTask: number[];
  /** Share of held-out prompts whose greedy reply is rewarded. */
  greedy: number;
}

export interface RlJobLog {
  step: number;
  /** Mean reward of the job's rollouts: fresh prompts each job, from the weights before it. */
  trainReward: number;
  /** mean_ratio of the job's first gradient step: exp(trainer's − server's log π) averaged over
   *  the tokens, before this job changed any weight (1 when serving and training agree). */
  firstStepRatio: number | null;
  trainableGroups: number;
  gradientSteps: number;
  rolloutSeconds: number;
  trainSeconds: number;
}

export interface RlSeedResult {
  seed: number;
  before: Measurement;
  after: Measurement;
  jobs: RlJobLog[];
  seconds: number;
}

function rlTasks(s: RlSettings, split: Split, seed: number, count: number): Task[] {
  if (s.task === "corpus") return corpusTasks({ families: s.families, levels: s.levels, split, seed, count, reward: s.reward });
  return wordTasks(s.task, { split, seed, count });
}

/** Held-out prompts (the held-out split, one fixed set for every seed). */
export function heldoutTasks(s: RlSettings): Task[] {
  return rlTasks(s, "heldout", 11, s.heldoutPrompts);
}

export async function measure(anneal: Anneal, model: string, tasks: Task[], s: RlSettings): Promise<Measurement> {
  // Fixed request seeds: before and after sample with the same random streams.
  const perTask = await rewardPerTask(anneal, model, tasks, { temperature: 1, samples: s.heldoutSamples, maxTokens: s.maxTokens, seed: 1 });
  const greedy = await rewardPerTask(anneal, model, tasks, { temperature: 0, samples: 1, maxTokens: s.maxTokens });
  return { sampled: mean(perTask), perTask, greedy: mean(greedy) };
}

export async function runRlSeed(anneal: Anneal, seed: number, s: RlSettings, runId: string, log: (line: string) => void): Promise<RlSeedResult> {
  const started = performance.now();
  const model = await anneal.createModel({ project: "bench-learn", name: `rl-${runId}-seed${seed}`, baseModel: s.baseModel });
  const heldout = heldoutTasks(s);
  const before = await measure(anneal, inferenceName(model), heldout, s);
  log(`seed ${seed}: before: sampled ${before.sampled.toFixed(3)}, greedy ${before.greedy.toFixed(3)} (${((performance.now() - started) / 1000).toFixed(0)} s)`);

  const train = rlTasks(s, "train", 1000 + seed, s.jobs * s.groupsPerJob);
  const jobs: RlJobLog[] = [];
  for (let j = 0; j < s.jobs; j++) {
    const t0 = performance.now();
    const name = inferenceName(model); // the latest step, as ART's get_inference_name()
    const tasks = train.slice(j * s.groupsPerJob, (j + 1) * s.groupsPerJob);
    const groups: TrajectoryGroup[] = await mapLimit(tasks, 4, (task, i) =>
      rolloutGroup(anneal, name, task, s.groupSize, { temperature: 1, maxTokens: s.maxTokens, seed: seed * 1_000_003 + j * 1_009 + i * 17 }));
    const t1 = performance.now();
    const jobId = await anneal.submitRlJob(model.id, groups, s.config);
    const ratios: number[] = []; // each gradient step's mean_ratio
    await anneal.waitForJob(jobId, { pollMs: s.pollMs, onEvent: (e) => void (e.type === "gradient_step" && ratios.push(Number(e.data.mean_ratio))) });
    const [gradientSteps, firstStepRatio] = [ratios.length, ratios[0] ?? null];
    const step = await anneal.latestStep(model.id);
    const rewards = groups.flatMap((g) => g.trajectories.map((t) => t.reward));
    const trainableGroups = groups.filter((g) => new Set(g.trajectories.map((t) => t.reward)).size > 1).length;
    const entry = { step, trainReward: mean(rewards), firstStepRatio, trainableGroups, gradientSteps, rolloutSeconds: (t1 - t0) / 1000, trainSeconds: (performance.now() - t1) / 1000 };
    jobs.push(entry);
    log(`seed ${seed}: job ${j + 1}/${s.jobs} → step ${step}: rollout reward ${entry.trainReward.toFixed(3)}, ${trainableGroups}/${groups.length} groups trainable, ` +
      `${gradientSteps} gradient steps (first step's mean ratio ${firstStepRatio?.toFixed(5) ?? "-"}), rollouts ${entry.rolloutSeconds.toFixed(1)} s, job ${entry.trainSeconds.toFixed(1)} s`);
  }
  const after = await measure(anneal, inferenceName(model), heldout, s);
  log(`seed ${seed}: after: sampled ${after.sampled.toFixed(3)}, greedy ${after.greedy.toFixed(3)}`);
  return { seed, before, after, jobs, seconds: (performance.now() - started) / 1000 };
}
