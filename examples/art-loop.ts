// The ART training loop against Anneal, as OpenPipe ART's serverless backend runs it:
// register a model (return_existing), roll out a task with a programmatic reward through chat
// completions (the `openai` SDK, logprobs on), submit the trajectory groups as an RL job, follow
// its events the ART way, read the new step from the checkpoints, repeat from the new weights.
//
//   ANNEAL_BASE_URL=http://localhost:3000 ANNEAL_API_KEY=... npx tsx examples/art-loop.ts
//
// The task: "Capitalize: <word> <word>", reward 1 for the exact answer (lib/word-tasks.ts:
// tiny-chat is right about 40% of the time, so most groups have signal); jobs use the base model's
// default learning rate. ART_LOOP_STEPS (default 8) jobs; ART_LOOP_MODEL names the model (default art-loop).
import { Anneal, inferenceName, type TrajectoryGroup } from "./lib/anneal";
import { mapLimit, mean, rewardPerTask, rolloutGroup } from "./lib/rollout";
import { wordTasks } from "./lib/word-tasks";

const anneal = Anneal.fromEnv();
const steps = Number(process.env.ART_LOOP_STEPS ?? 8);
const GROUPS_PER_STEP = 8;
const GROUP_SIZE = 8;
const sampling = { temperature: 1, maxTokens: 24 };

const model = await anneal.createModel({ project: "examples", name: process.env.ART_LOOP_MODEL ?? "art-loop", baseModel: "anneal/tiny-chat" });
console.log(`model ${inferenceName(model)} (${model.id}), at step ${await anneal.latestStep(model.id)}`);

const train = wordTasks("capitalize", { split: "train", seed: 7, count: steps * GROUPS_PER_STEP });
const heldout = wordTasks("capitalize", { split: "heldout", seed: 11, count: 32 });
const evaluate = async () => mean(await rewardPerTask(anneal, inferenceName(model), heldout, { ...sampling, samples: 4, seed: 1 }));
console.log(`held-out reward before: ${(await evaluate()).toFixed(3)}`);

for (let i = 0; i < steps; i++) {
  // Rollouts from the latest weights (ART's get_inference_name()).
  const tasks = train.slice(i * GROUPS_PER_STEP, (i + 1) * GROUPS_PER_STEP);
  const groups: TrajectoryGroup[] = await mapLimit(tasks, 4, (task) => rolloutGroup(anneal, inferenceName(model), task, GROUP_SIZE, sampling));
  const reward = mean(groups.flatMap((g) => g.trajectories.map((t) => t.reward)));

  const jobId = await anneal.submitRlJob(model.id, groups);
  let gradientSteps = 0;
  await anneal.waitForJob(jobId, {
    onEvent: (event) => {
      if (event.type === "training_started") gradientSteps = Number(event.data.num_sequences);
    },
  });
  const step = await anneal.latestStep(model.id);
  console.log(`step ${step}: rollout reward ${reward.toFixed(3)} (${gradientSteps} gradient steps)`);
}
console.log(`held-out reward after: ${(await evaluate()).toFixed(3)}; serve it as ${inferenceName(model)} or ${inferenceName(model, await anneal.latestStep(model.id))}`);
