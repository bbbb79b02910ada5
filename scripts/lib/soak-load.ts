import type { Person } from "./bench-people";
import type { Traffic } from "./soak-traffic";

// What bench:soak's users do, over HTTP: the request mix (chat streams, some closed early; feedback
// written; stats asked; the call log browsed), annotators working a queue, and training (SFT and RL
// jobs, an RL run). Everything the service acknowledged is noted, for the checks at the end.

export interface SoakWorld {
  traffic: Traffic;
  owner: Person;
  annotators: Person[];
  /** `team/project` of the queue, the feedback and the stats. */
  project: string;
  queueId: string;
  /** When the load began: the stats' range starts here. */
  since: Date;
}

/** What the service answered as done: it must all be there at the end. */
export interface Acknowledged {
  /** Completions whose whole answer (the stream through [DONE]) was received. */
  calls: string[];
  feedback: string[];
  /** Queue submissions answered 200: (annotator, item). */
  submissions: { userId: string; itemId: string }[];
  /** Queue item → the annotators "next" handed it to. */
  claims: Map<string, Set<string>>;
  jobs: string[];
  runs: string[];
}

export const acknowledged = (): Acknowledged => ({ calls: [], feedback: [], submissions: [], claims: new Map(), jobs: [], runs: [] });

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const QUESTIONS = ["What is 2 + 3?", "Name a colour.", "Say hello.", "Count to three.", "What is the capital of France?"];
/** A stream closed by its user after this many chunks: this share of the streams. */
const CLOSED_EARLY = { share: 0.2, afterChunks: 3 };

/** The request mix, by weight; each sends one or two requests. */
export function requestMix(world: SoakWorld, acks: Acknowledged): { name: string; weight: number; run: () => Promise<void> }[] {
  const { traffic, owner, project } = world;
  return [
    {
      name: "chat",
      weight: 3,
      async run() {
        const closeEarly = Math.random() < CLOSED_EARLY.share;
        const body = { messages: [{ role: "user", content: pick(QUESTIONS) }], max_tokens: 12, stream: true };
        const route = closeEarly ? "POST /v1/chat/completions (stream, closed early)" : "POST /v1/chat/completions (stream)";
        const answer = await traffic.send(route, owner.key, "POST", "/v1/chat/completions", { body, stream: closeEarly ? { abortAfterChunks: CLOSED_EARLY.afterChunks } : {} });
        // Answered: the whole stream, through [DONE], without an error event.
        if (answer?.status === 200 && !closeEarly && answer.text.trimEnd().endsWith("data: [DONE]") && !answer.text.includes('data: {"error"')) {
          acks.calls.push(answer.headers.get("anneal-call-id")!);
        }
      },
    },
    {
      name: "feedback",
      weight: 3,
      async run() {
        const body = {
          project_id: project, feedback_type: "soak.score", svc_ref: `svc:///${project}/call/${crypto.randomUUID()}`,
          payload: { score: Math.round(Math.random() * 100), ok: Math.random() < 0.7, label: pick(["good", "fair", "bad"]) },
        };
        const answer = await traffic.send("POST /feedback/create", owner.key, "POST", "/feedback/create", { body, basic: true });
        if (answer?.status === 200) acks.feedback.push(answer.body.id);
      },
    },
    {
      name: "stats",
      weight: 1,
      async run() {
        const body = {
          project_id: project, start: world.since.toISOString(), feedback_type: "soak.score",
          metrics: [{ json_path: "score", value_type: "numeric", aggregations: ["avg", "max"], percentiles: [50, 95] }, { json_path: "ok", value_type: "boolean" }],
        };
        await traffic.send("POST /feedback/stats", owner.key, "POST", "/feedback/stats", { body, basic: true });
      },
    },
    {
      name: "call log",
      weight: 1,
      async run() {
        const page = await traffic.send("GET /v1/calls", owner.key, "GET", "/v1/calls?limit=20");
        const first = page?.status === 200 ? page.body.data[0] : undefined;
        if (first) await traffic.send("GET /v1/calls/{id}", owner.key, "GET", `/v1/calls/${first.id}`);
      },
    },
  ];
}

/** Sleeps `ms`, or less once `running()` turns false. */
async function pause(ms: number, running: () => boolean): Promise<void> {
  for (const until = performance.now() + ms; running() && performance.now() < until;) await sleep(Math.min(250, until - performance.now()));
}

/** One annotator's round on the world's queue: next → read the item → think → submit. False when nothing was left. */
export async function annotateOnce(world: SoakWorld, who: Person, thinkMs: number, acks: Acknowledged, running: () => boolean): Promise<boolean> {
  const { traffic, queueId } = world;
  const base = `/annotation_queues/${queueId}`;
  const next = await traffic.send("POST /annotation_queues/{id}/next", who.key, "POST", `${base}/next`, { basic: true });
  const item = next?.status === 200 ? (next.body.item as { id: string } | null) : null;
  if (!item) return false;
  acks.claims.set(item.id, (acks.claims.get(item.id) ?? new Set()).add(who.username));
  await traffic.send("GET /annotation_queues/{id}/items/{id}", who.key, "GET", `${base}/items/${item.id}`, { basic: true });
  await pause(thinkMs, running);
  const values = { score: 1 + Math.floor(Math.random() * 5), correct: Math.random() < 0.5 };
  // A submission cut by a kill is sent again, as a user would press the button again.
  for (let tries = 0; tries < 3; tries++) {
    const submitted = await traffic.send("POST /annotation_queues/{id}/items/{id}/submit", who.key, "POST", `${base}/items/${item.id}/submit`, { body: { values }, basic: true });
    if (submitted?.status === 200) acks.submissions.push({ userId: who.userId, itemId: item.id });
    if (submitted && submitted.status < 500) break;
    await sleep(1000);
  }
  return true;
}

/** One annotator, while `running()`: a round every `roundMs` (half of it reading the item). */
export async function annotate(world: SoakWorld, who: Person, roundMs: number, acks: Acknowledged, running: () => boolean): Promise<void> {
  await pause(Math.random() * roundMs, running); // annotators do not start in step
  while (running()) {
    const started = performance.now();
    await annotateOnce(world, who, roundMs / 2, acks, running);
    await pause(roundMs - (performance.now() - started), running);
  }
}

const SFT_EXAMPLES = Array.from({ length: 6 }, (_, i) => ({
  messages: [{ role: "user", content: `What is ${i} + 1?` }, { role: "assistant", content: `${i + 1}` }],
}));

/** A model of its own (in the owner's own team) for each job, so jobs run side by side (one model's jobs run in order). */
async function newModel(world: SoakWorld, name: string): Promise<{ id: string; name: string } | null> {
  const [, project] = world.project.split("/");
  const answer = await world.traffic.send("POST /v1/preview/models", world.owner.key, "POST", "/v1/preview/models", { body: { project, name, base_model: "anneal/tiny-chat" } });
  return answer?.status === 200 ? { id: answer.body.id, name: `${answer.body.entity}/${answer.body.project}/${answer.body.name}` } : null;
}

/** Submits a small SFT job. */
export async function submitSftJob(world: SoakWorld, acks: Acknowledged, n: number): Promise<void> {
  const model = await newModel(world, `sft-${n}`);
  if (!model) return;
  const answer = await world.traffic.send("POST /v1/preview/sft-training-jobs", world.owner.key, "POST", "/v1/preview/sft-training-jobs", {
    body: { model_id: model.id, training_data: SFT_EXAMPLES, config: { batch_size: 2 } },
  });
  if (answer?.status === 200) acks.jobs.push(answer.body.id);
}

/** ART's loop once: sample a group of replies from the model, score them, submit an RL job. */
export async function submitRlJob(world: SoakWorld, acks: Acknowledged, n: number): Promise<void> {
  const model = await newModel(world, `rl-${n}`);
  if (!model) return;
  const groups = [];
  for (const question of [pick(QUESTIONS), pick(QUESTIONS)]) {
    const messages = [{ role: "user", content: question }];
    const rollout = await world.traffic.send("POST /v1/chat/completions (rollout, n=4)", world.owner.key, "POST", "/v1/chat/completions", { body: { model: model.name, messages, n: 4, max_tokens: 8 } });
    if (rollout?.status !== 200) return;
    const choices = rollout.body.choices as { message: { content: string } }[];
    groups.push({ trajectories: choices.map((choice) => ({ messages_and_choices: [...messages, choice], reward: choice.message.content.length % 2 })) });
  }
  const answer = await world.traffic.send("POST /v1/preview/training-jobs", world.owner.key, "POST", "/v1/preview/training-jobs", { body: { model_id: model.id, trajectory_groups: groups } });
  if (answer?.status === 200) acks.jobs.push(answer.body.id);
}

/** How often the RL run's status is read, to start the next when it has finished. */
const RUN_CHECK_MS = 10_000;

/** Starts an RL run (200 iterations): its id, or null when it was refused or cut. Its replies
 *  (tiny-chat's, up to 8 tokens, sampled at 1.5) are 1 to 25 characters long, so a reward for 7 or
 *  fewer differs within many groups: 45 to 58 of each run's 200 iterations trained an RL job in a
 *  10-minute soak (7 of 130 at `max: 20` and the default temperature 1, the rest learning nothing). */
export async function startRlRun(world: SoakWorld, acks: Acknowledged): Promise<string | null> {
  const model = await newModel(world, `rl-run-${acks.runs.length}`);
  if (!model) return null;
  const answer = await world.traffic.send("POST /v1/preview/rl-runs", world.owner.key, "POST", "/v1/preview/rl-runs", {
    body: {
      model_id: model.id, prompts: { source: "inline", items: QUESTIONS.map((q) => ({ messages: [{ role: "user", content: q }] })) },
      checker: { type: "length", min: 0, max: 7 }, group_size: 4, iterations: 200, prompts_per_iteration: 2, max_tokens: 8, temperature: 1.5,
    },
  });
  if (answer?.status !== 200) return null;
  acks.runs.push(answer.body.id);
  return answer.body.id;
}

/** Keeps an RL run training while `running()`, from run `first` on: when one has finished (how
 *  long it takes depends on the machine) the next starts. Resolves with the run still going, to be
 *  cancelled, or null. */
export async function keepRlRunTraining(world: SoakWorld, acks: Acknowledged, first: string | null, running: () => boolean): Promise<string | null> {
  let current = first;
  while (running()) {
    await pause(RUN_CHECK_MS, running);
    if (!running()) break;
    if (!current) {
      current = await startRlRun(world, acks);
      continue;
    }
    const run = await world.traffic.send("GET /v1/preview/rl-runs/{id}", world.owner.key, "GET", `/v1/preview/rl-runs/${current}`);
    if (["succeeded", "failed", "cancelled"].includes(run?.body?.status)) current = await startRlRun(world, acks);
  }
  return current;
}
