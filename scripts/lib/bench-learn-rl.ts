// bench:learn, RL part: per seed, a fresh model from the base, held-out reward before, a series
// of RL jobs (rollouts → trajectory groups → job → ART's event loop → the new step), held-out
// reward after, and what the model still gets right of the base's own curriculum (does it
// forget?). Everything goes through the HTTP API, as an ART user's code does.
import { Anneal, inferenceName, type LoraSettings, type RlConfig, type TrajectoryGroup } from "../../examples/lib/anneal";
import { mapLimit, mean, rewardPerTask, rolloutGroup } from "../../examples/lib/rollout";
import { corpusTasks, type RewardKind, type Task } from "../../examples/lib/tasks";
import { wordTasks, type WordTaskName } from "../../examples/lib/word-tasks";
import type { TaskFamily } from "../../lib/engine/corpus/example";
import { CURRICULUM, EmptySplitError, type Split } from "../../lib/engine/corpus/generate";

export interface RlSettings {
  baseModel: string;
  /** The models train a LoRA adapter with these settings (`{}`: the server's defaults); null: full weights. */
  lora: LoraSettings | null;
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
  /** Share of each job's groups drawn from the base's own curriculum (train split, every family,
   *  levels 1–3, exact answer) beside the task's: trained on the new task alone, tiny-chat-2 starts
   *  answering "Last word of" with the first word (docs/decisions.md, "RL on the default base"). */
  replay: number;
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
  /** Mean reward of the job's rollouts of the task: fresh prompts each job, from the weights before it. */
  trainReward: number;
  /** Mean reward of its rollouts of the replayed curriculum (null without replay). */
  replayReward: number | null;
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
  mode: "full" | "lora";
  before: Measurement;
  after: Measurement;
  /** Greedy reward per held-out prompt of the base's curriculum, before and after, and each prompt's level. */
  oldTasksBefore: number[];
  oldTasksAfter: number[];
  oldTaskLevels: string[];
  jobs: RlJobLog[];
  /** The rate the server trained at (the first gradient step's `learning_rate`: the job's, or the model's default). */
  learningRate: number | null;
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

const FAMILIES = Object.keys(CURRICULUM) as TaskFamily[];
const LEVELS = [1, 2, 3];
/** The base's own curriculum, every family and level mixed: what replay trains on. */
const curriculum = (split: Split, seed: number, count: number) => corpusTasks({ families: FAMILIES, levels: LEVELS, split, seed, count });

/** Forgetting is measured on this many held-out prompts of each family's each level: a new task
 *  tends to hurt one neighbouring level (first word vs "Last word of"), which a mixed sample of
 *  the same size would barely hold. */
const OLD_TASKS_PER_LEVEL = 16;
/** Each level's held-out prompts; a level whose few prompts all fall in the train split has none. */
function oldTasks(): { tasks: Task[]; levels: string[] } {
  const tasks: Task[] = [];
  const levels: string[] = [];
  for (const family of FAMILIES) {
    for (const level of LEVELS) {
      try {
        const some = corpusTasks({ families: [family], levels: [level], split: "heldout", seed: 11, count: OLD_TASKS_PER_LEVEL });
        tasks.push(...some);
        levels.push(...some.map(() => `${family} ${level}`));
      } catch (error) {
        if (!(error instanceof EmptySplitError)) throw error;
      }
    }
  }
  return { tasks, levels };
}

/** Each job's prompts: the task's, and `replay` of them from the curriculum. */
export function trainingPlan(s: RlSettings, seed: number): { own: Task[]; replayed: Task[] }[] {
  const replayed = Math.round(s.groupsPerJob * s.replay);
  const own = rlTasks(s, "train", 1000 + seed, s.jobs * (s.groupsPerJob - replayed));
  const old = curriculum("train", 3000 + seed, s.jobs * replayed);
  return Array.from({ length: s.jobs }, (_, j) => ({
    own: own.slice(j * (s.groupsPerJob - replayed), (j + 1) * (s.groupsPerJob - replayed)),
    replayed: old.slice(j * replayed, (j + 1) * replayed),
  }));
}

export async function measure(anneal: Anneal, model: string, tasks: Task[], s: RlSettings): Promise<Measurement> {
  // Fixed request seeds: before and after sample with the same random streams.
  const perTask = await rewardPerTask(anneal, model, tasks, { temperature: 1, samples: s.heldoutSamples, maxTokens: s.maxTokens, seed: 1 });
  const greedy = await rewardPerTask(anneal, model, tasks, { temperature: 0, samples: 1, maxTokens: s.maxTokens });
  return { sampled: mean(perTask), perTask, greedy: mean(greedy) };
}

export async function runRlSeed(anneal: Anneal, seed: number, s: RlSettings, runId: string, log: (line: string) => void): Promise<RlSeedResult> {
  const started = performance.now();
  const mode = s.lora ? "lora" : "full";
  const model = await anneal.createModel({ project: "bench-learn", name: `rl-${runId}-seed${seed}${s.lora ? "-lora" : ""}`, baseModel: s.baseModel, lora: s.lora });
  const heldout = heldoutTasks(s);
  const before = await measure(anneal, inferenceName(model), heldout, s);
  const old = oldTasks();
  const greedyOn = (tasks: Task[]) => rewardPerTask(anneal, inferenceName(model), tasks, { temperature: 0, samples: 1, maxTokens: s.maxTokens });
  const oldTasksBefore = await greedyOn(old.tasks);
  log(`seed ${seed} ${mode}: before: sampled ${before.sampled.toFixed(3)}, greedy ${before.greedy.toFixed(3)}; curriculum greedy ${mean(oldTasksBefore).toFixed(3)} (${((performance.now() - started) / 1000).toFixed(0)} s)`);

  const plan = trainingPlan(s, seed);
  const jobs: RlJobLog[] = [];
  let learningRate: number | null = null;
  for (let j = 0; j < s.jobs; j++) {
    const t0 = performance.now();
    const name = inferenceName(model); // the latest step, as ART's get_inference_name()
    const tasks = [...plan[j].own, ...plan[j].replayed];
    const groups: TrajectoryGroup[] = await mapLimit(tasks, 4, (task, i) =>
      rolloutGroup(anneal, name, task, s.groupSize, { temperature: 1, maxTokens: s.maxTokens, seed: seed * 1_000_003 + j * 1_009 + i * 17 }));
    const t1 = performance.now();
    const jobId = await anneal.submitRlJob(model.id, groups, s.config);
    const ratios: number[] = []; // each gradient step's mean_ratio
    await anneal.waitForJob(jobId, {
      pollMs: s.pollMs,
      onEvent: (e) => {
        if (e.type !== "gradient_step") return;
        ratios.push(Number(e.data.mean_ratio));
        learningRate ??= Number(e.data.learning_rate);
      },
    });
    const [gradientSteps, firstStepRatio] = [ratios.length, ratios[0] ?? null];
    const step = await anneal.latestStep(model.id);
    const rewardOf = (list: TrajectoryGroup[]) => mean(list.flatMap((g) => g.trajectories.map((t) => t.reward)));
    const [ownGroups, replayGroups] = [groups.slice(0, plan[j].own.length), groups.slice(plan[j].own.length)];
    const trainableGroups = groups.filter((g) => new Set(g.trajectories.map((t) => t.reward)).size > 1).length;
    const entry = {
      step, trainReward: rewardOf(ownGroups), replayReward: replayGroups.length ? rewardOf(replayGroups) : null,
      firstStepRatio, trainableGroups, gradientSteps, rolloutSeconds: (t1 - t0) / 1000, trainSeconds: (performance.now() - t1) / 1000,
    };
    jobs.push(entry);
    log(`seed ${seed} ${mode}: job ${j + 1}/${s.jobs} → step ${step}: rollout reward ${entry.trainReward.toFixed(3)}${entry.replayReward === null ? "" : ` (curriculum ${entry.replayReward.toFixed(3)})`}, ${trainableGroups}/${groups.length} groups trainable, ` +
      `${gradientSteps} gradient steps (first step's mean ratio ${firstStepRatio?.toFixed(5) ?? "-"}), rollouts ${entry.rolloutSeconds.toFixed(1)} s, job ${entry.trainSeconds.toFixed(1)} s`);
  }
  const after = await measure(anneal, inferenceName(model), heldout, s);
  const oldTasksAfter = await greedyOn(old.tasks);
  log(`seed ${seed} ${mode}: after: sampled ${after.sampled.toFixed(3)}, greedy ${after.greedy.toFixed(3)}; curriculum greedy ${mean(oldTasksAfter).toFixed(3)}`);
  return { seed, mode, before, after, oldTasksBefore, oldTasksAfter, oldTaskLevels: old.levels, jobs, learningRate, seconds: (performance.now() - started) / 1000 };
}
