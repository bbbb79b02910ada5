import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { resetEnvCache } from "@/lib/config/env";
import { closeDatabase } from "@/lib/db/client";
import { createScratchDatabase } from "@/lib/db/scratch-database";
import { MAX_ITEMS_PER_ADD } from "@/lib/queues/item-schemas";
import { residentMb } from "./anneal-processes";
import { benchTeam, seedCalls } from "./bench-people";
import { startScaledDeployment, type ScaledDeployment } from "./scaled-deployment";
import { findings, type Findings } from "./soak-checks";
import { growth, heapSamples, MEMORY_PROBE, type MemoryGrowth, type Sample } from "./soak-memory";
import { acknowledged, annotate, annotateOnce, keepRlRunTraining, requestMix, startRlRun, submitRlJob, submitSftJob, type Acknowledged, type SoakWorld } from "./soak-load";
import { Traffic, type WebTarget } from "./soak-traffic";

// bench:soak (scripts/bench-soak.ts) and its 3-minute run in the topology test: two web processes
// and two workers on a fresh PostgreSQL database; a short capacity probe; then, for `minutes`, a
// mixed load at `loadShare` of that capacity while every `killSeconds` one process (web 1 or
// worker 1, never web 0 or worker 0) is SIGKILLed and started again; then the checks.

export interface SoakSettings {
  /** A PostgreSQL server's URL: the soak creates a database of its own there and drops it. */
  serverUrl: string;
  minutes: number;
  killSeconds: number;
  /** The share of the probed capacity the load runs at. */
  loadShare: number;
  probeSeconds: number;
  /** A training job (SFT and RL in turn) is submitted this often. */
  jobEverySeconds: number;
  /** After the load, how long jobs and runs get to finish. */
  drainSeconds: number;
  annotators: number;
  log: (line: string) => void;
}

export interface Check {
  what: string;
  ok: boolean;
}

export interface SoakReport {
  capacityOpsPerSecond: number;
  capacityAnnotatorRoundsPerSecond: number;
  targetOpsPerSecond: number;
  operations: number;
  /** Chat streams closed by their user after a few chunks. */
  closedEarly: number;
  /** Arrivals not sent because MAX_IN_FLIGHT requests were still waiting (the service fell behind). */
  skipped: number;
  kills: { atSeconds: number; process: string; backAfterSeconds: number }[];
  routes: ReturnType<Traffic["summary"]>;
  /** Growth after the warm-up of the resident set and of the V8 heaps (every thread's) after a full collection. */
  memory: { process: string; rss: MemoryGrowth; heap: MemoryGrowth; judged: boolean }[];
  findings: Findings;
  acknowledged: { calls: number; feedback: number; submissions: number; jobs: number; runs: number };
  requests: number;
  loadAverage: { start: number[]; max1m: number; end: number[] };
  checks: Check[];
}

const INIT_KEY = "soak-init-key-0123456789abcdefghijklmn";
/** The share of the load that is annotators' work (the rest is the request mix). */
const ANNOTATOR_SHARE = 0.3;
/** Items of the probe's queue. */
const PROBE_ITEMS = 500;
const PROBE_CONCURRENCY = 4;
export const MAX_IN_FLIGHT = 64;
const MEMORY_EVERY_MS = 5_000;
/** Memory growth is judged only on at least this much time after the warm-up (less is noise). */
const MEMORY_MIN_WINDOW_MINUTES = 5;
const MEMORY_LIMIT_MB_PER_HOUR = 50;
const RETRY_LATER_LIMIT = 0.01;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `operation` from `concurrency` loops for `seconds`: operations finished per second. */
async function probe(operation: () => Promise<void>, concurrency: number, seconds: number): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < until) {
      await operation();
      done++;
    }
  }));
  return done / seconds;
}

async function seedWorld(deployment: ScaledDeployment, traffic: Traffic, settings: SoakSettings) {
  const { owner, annotators, projectId } = await benchTeam("soak", "judging", settings.annotators);
  for (const spec of [{ name: "score", type: "numeric", min: 1, max: 5, integer: true }, { name: "correct", type: "boolean" }]) {
    const answer = await traffic.send("setup", owner.key, "POST", "/v1/teams/soak/projects/judging/annotation-specs", { body: spec });
    if (!answer || answer.status >= 300) throw new Error(`annotation spec ${spec.name}: ${answer?.status} ${answer?.text}\n${deployment.everyOutput()}`);
  }
  return { owner, annotators, projectId };
}

/** A queue of the project's first `items` calls, for every annotator. */
async function createQueue(world: SoakWorld, name: string, items: number): Promise<string> {
  const { traffic, owner, annotators, project } = world;
  const queue = await traffic.send("setup", owner.key, "POST", "/annotation_queues", {
    basic: true,
    body: { project, name, instructions: "Score the answer.", specs: [{ name: "score" }, { name: "correct" }], annotators: annotators.map((a) => a.username) },
  });
  if (!queue || queue.status >= 300) throw new Error(`queue: ${queue?.status} ${queue?.text}`);
  const added = await traffic.send("setup", owner.key, "POST", `/annotation_queues/${queue.body.id}/items`, { basic: true, body: { filter: { status: "success" }, limit: items } });
  if (added?.body?.added !== items) throw new Error(`queue items: ${added?.status} ${added?.text}`);
  return queue.body.id;
}

export async function runSoak(settings: SoakSettings): Promise<SoakReport> {
  const { log } = settings;
  const database = await createScratchDatabase(settings.serverUrl, "anneal_soak");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-soak-"));
  const sql = new pg.Pool({ connectionString: database.url, max: 2 });
  let deployment: ScaledDeployment | undefined;
  let running = true; // the load's loops, and the RL run's from before the probe, go on while this holds
  try {
    log(`database ${new URL(database.url).pathname.slice(1)} (dropped at the end), data directory ${dataDir}`);
    // Every process writes its V8 heap (memory-probe.mjs); web 0's and worker 0's are read.
    const probeDir = path.join(dataDir, "memory-probe");
    fs.mkdirSync(probeDir);
    const probed = { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import=${MEMORY_PROBE}`.trim(), ANNEAL_MEMORY_PROBE_DIR: probeDir };
    deployment = await startScaledDeployment({ databaseUrl: database.url, dataDir, initKey: INIT_KEY, webs: 2, workers: 2, webEnv: probed, workerEnv: probed });
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    log(`two web processes (${deployment.webs.map((w) => w.url).join(", ")}) and two workers started`);
    process.env.DATABASE_URL = database.url; // people and calls are written straight into the soak's database
    resetEnvCache();

    const webs: WebTarget[] = deployment.webs.map((w) => ({ url: w.url, up: true, kills: 0 }));
    const traffic = new Traffic(webs);
    const { owner, annotators, projectId } = await seedWorld(deployment, traffic, settings);
    const acks = acknowledged();
    // The load's queue is made after the probe, sized by it; the stats' range starts with the load.
    const world: SoakWorld = { traffic, owner, annotators, project: "soak/judging", queueId: "", since: new Date() };

    // The probe, as fast as the deployment answers from a few closed loops: the request mix, then
    // annotators' rounds on a queue of their own (far cheaper requests than the mix's streams). The
    // RL run trains meanwhile: the probe sees the machine as the load will have it. One trains
    // until the load ends: the next starts when one has finished.
    const rlRuns = keepRlRunTraining(world, acks, await startRlRun(world, acks), () => running);
    const mix = requestMix(world, acks);
    const weighted = mix.flatMap((op) => Array<typeof op>(op.weight).fill(op));
    const anyOperation = () => weighted[Math.floor(Math.random() * weighted.length)].run();
    const capacity = await probe(anyOperation, PROBE_CONCURRENCY, settings.probeSeconds);
    await seedCalls(projectId, PROBE_ITEMS);
    world.queueId = await createQueue(world, "probe", PROBE_ITEMS);
    const rounds = await probe(async () => void (await annotateOnce(world, annotators[Math.floor(Math.random() * annotators.length)], 0, acks, () => true)), PROBE_CONCURRENCY, settings.probeSeconds / 2);

    // The load: each kind at its share of what it alone sustained, together `loadShare` of the machine.
    const mixRate = capacity * settings.loadShare * (1 - ANNOTATOR_SHARE);
    const annotatorRoundMs = (1000 * settings.annotators) / (rounds * settings.loadShare * ANNOTATOR_SHARE);
    const loadSeconds = settings.minutes * 60;
    const items = Math.min(MAX_ITEMS_PER_ADD, Math.ceil(((loadSeconds * 1000) / annotatorRoundMs) * settings.annotators * 1.2) + 50);
    await seedCalls(projectId, items);
    world.queueId = await createQueue(world, "soak", items);
    world.since = new Date();
    traffic.routes.clear(); // latencies are the load's; the probe's and the setup's failures still count
    log(`capacity: ${capacity.toFixed(1)} operations/s of the request mix, ${rounds.toFixed(1)} annotator rounds/s (each alone, ${PROBE_CONCURRENCY} at a time); ` +
      `load (${(settings.loadShare * 100).toFixed(0)}%): ${mixRate.toFixed(2)} operations/s and ${settings.annotators} annotators at one item each per ${(annotatorRoundMs / 1000).toFixed(1)} s; queue of ${items} items`);

    const loadStarted = seconds();
    const loadAverage = { start: os.loadavg(), max1m: 0, end: [] as number[] };
    const loadStartedAt = Date.now();
    const watched = new Map([["web 0", deployment.webs[0].process], ["worker 0", deployment.workers[0]]]);
    const resident = new Map([...watched.keys()].map((name): [string, Sample[]] => [name, []]));
    const sampleMemory = () => {
      const at = seconds() - loadStarted;
      for (const [name, p] of watched) resident.get(name)!.push({ s: at, mb: residentMb(p) ?? NaN });
      loadAverage.max1m = Math.max(loadAverage.max1m, os.loadavg()[0]);
    };
    const sampler = setInterval(sampleMemory, MEMORY_EVERY_MS);
    sampleMemory();

    // The request mix: open-loop (Poisson) arrivals, as users do not wait for each other.
    let operations = 0;
    let skipped = 0;
    const inFlight = new Set<Promise<void>>();
    const arrivals = (async () => {
      while (running) {
        if (inFlight.size >= MAX_IN_FLIGHT) skipped++;
        else {
          const op = anyOperation().finally(() => inFlight.delete(op));
          inFlight.add(op);
          operations++;
        }
        await sleep(-Math.log(1 - Math.random()) * (1000 / mixRate));
      }
      await Promise.all(inFlight);
    })();
    const annotating = annotators.map((who) => annotate(world, who, annotatorRoundMs, acks, () => running));
    const training = (async () => {
      for (let n = 0; running; n++) {
        await (n % 2 === 0 ? submitSftJob(world, acks, n) : submitRlJob(world, acks, n));
        for (const until = performance.now() + settings.jobEverySeconds * 1000; running && performance.now() < until;) await sleep(250);
      }
    })();
    const kills: SoakReport["kills"] = [];
    const killing = (async () => {
      // On a schedule from the load's start (a slow restart delays the next kill, not the ones after).
      for (let k = 1; ; k++) {
        while (running && seconds() - loadStarted < k * settings.killSeconds) await sleep(250);
        if (!running) return;
        const web = Math.random() < 0.5;
        const at = seconds() - loadStarted;
        log(`${at.toFixed(0)} s: SIGKILL ${web ? "web 1" : "worker 1"}`);
        if (web) {
          webs[1].up = false;
          webs[1].kills++;
          await deployment!.restart({ web: 1 });
          webs[1].up = true;
        } else await deployment!.restart({ worker: 1 });
        kills.push({ atSeconds: Math.round(at), process: web ? "web 1" : "worker 1", backAfterSeconds: Math.round(seconds() - loadStarted - at) });
      }
    })();

    await sleep(loadSeconds * 1000);
    running = false;
    log(`${loadSeconds} s: load stopped; waiting for requests in flight and a restart under way`);
    const [rlRun] = await Promise.all([rlRuns, arrivals, ...annotating, training, killing]);
    clearInterval(sampler);
    sampleMemory();
    loadAverage.end = os.loadavg();
    if (rlRun) {
      // 409: it finished since its status was last read.
      const cancelled = await traffic.send("POST /v1/preview/rl-runs/{id}/cancel", owner.key, "POST", `/v1/preview/rl-runs/${rlRun}/cancel`);
      if (cancelled?.status !== 200 && cancelled?.status !== 409) log(`RL run ${rlRun} not cancelled: ${cancelled?.status} ${cancelled?.text}`);
    }
    const drainUntil = performance.now() + settings.drainSeconds * 1000;
    const openWork = async () => Number((await sql.query(
      `SELECT (SELECT count(*) FROM "TrainingJob" WHERE status IN ('queued', 'running')) + (SELECT count(*) FROM "RlRun" WHERE status IN ('queued', 'running')) AS n`,
    )).rows[0].n);
    while ((await openWork()) > 0 && performance.now() < drainUntil) await sleep(1000);
    log(`jobs and runs drained after ${(seconds() - loadStarted - loadSeconds).toFixed(0)} s`);

    const found = await findings(sql, acks);
    const memory = [...watched].map(([name, p]) => ({ process: name, rss: resident.get(name)!, heap: heapSamples(probeDir, p.child.pid, loadStartedAt) }));
    const report = summarise(settings, { capacity, rounds, mixRate, operations, skipped, kills, traffic, memory, found, acks, loadAverage });
    if (report.checks.some((c) => !c.ok)) log(deployment.everyOutput().slice(-20_000));
    return report;
  } finally {
    running = false;
    await deployment?.stop();
    await closeDatabase();
    await sql.end();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function summarise(
  settings: SoakSettings,
  r: { capacity: number; rounds: number; mixRate: number; operations: number; skipped: number; kills: SoakReport["kills"]; traffic: Traffic; memory: { process: string; rss: Sample[]; heap: Sample[] }[]; found: Findings; acks: Acknowledged; loadAverage: SoakReport["loadAverage"] },
): SoakReport {
  const { traffic, found, acks } = r;
  const warmUp = Math.min(300, (settings.minutes * 60) / 3);
  const memory = r.memory.map((m) => {
    const rss = growth(m.rss, warmUp);
    return { process: m.process, rss, heap: growth(m.heap, warmUp), judged: rss.seconds >= MEMORY_MIN_WINDOW_MINUTES * 60 };
  });
  const stuck = found.unfinished.filter((w) => !w.legitimate);
  const twice = [...acks.claims].filter(([, who]) => who.size > 1);
  const retryLater = traffic.retryLater503 / Math.max(1, traffic.requests);
  const checks: Check[] = [
    { what: `answered calls missing: ${found.missingCalls.length} (of ${acks.calls.length})`, ok: found.missingCalls.length === 0 },
    { what: `acknowledged feedback rows missing: ${found.missingFeedback.length} (of ${acks.feedback.length}); queue submissions without their feedback: ${found.missingSubmissions} (of ${acks.submissions.length})`, ok: found.missingFeedback.length === 0 && found.missingSubmissions === 0 },
    { what: `acknowledged jobs and runs missing: ${found.missingWork.length}`, ok: found.missingWork.length === 0 },
    { what: `jobs and runs neither finished nor legitimately running: ${stuck.length} (of ${acks.jobs.length} jobs and ${acks.runs.length} runs; ${found.unfinished.length - stuck.length} still running or queued behind one, ${found.failed.length} failed)`, ok: stuck.length === 0 },
    { what: `items claimed by two annotators: ${twice.length} (of ${acks.claims.size} claimed)`, ok: twice.length === 0 },
    { what: `500s: ${traffic.serverErrors500.length}`, ok: traffic.serverErrors500.length === 0 },
    { what: `other 5xx: ${traffic.otherServerErrors.length} without Retry-After, ${traffic.retryLater503} 503 with Retry-After (${(retryLater * 100).toFixed(2)}% of ${traffic.requests} requests, at most ${RETRY_LATER_LIMIT * 100}%)`, ok: traffic.otherServerErrors.length === 0 && retryLater <= RETRY_LATER_LIMIT },
    { what: `requests hung past 30 s: ${traffic.hung.length}`, ok: traffic.hung.length === 0 },
    { what: `connections failed to a process not being killed: ${traffic.connectionFailures.length} (${traffic.cutByKill} cut by a kill)`, ok: traffic.connectionFailures.length === 0 },
    ...memory.map((m) => ({
      // What JavaScript retains is judged; the resident set also grows by what V8 and malloc keep
      // mapped once used (docs/operations.md, "Soak test"), so it is shown, not judged.
      what: `memory growth of ${m.process} after the ${warmUp.toFixed(0)} s warm-up: V8 heaps after a full collection ${m.heap.mbPerHour} MB/hour (${m.heap.warmMb} → ${m.heap.endMb} MB)` +
        (m.judged ? ` ≤ ${MEMORY_LIMIT_MB_PER_HOUR}` : `: not judged, under ${MEMORY_MIN_WINDOW_MINUTES} minutes measured`) +
        `; resident ${m.rss.mbPerHour} MB/hour (${m.rss.warmMb} → ${m.rss.endMb} MB)`,
      ok: !m.judged || (m.heap.seconds > 0 && m.heap.mbPerHour <= MEMORY_LIMIT_MB_PER_HOUR),
    })),
  ];
  for (const [what, list] of [["500", traffic.serverErrors500], ["other 5xx", traffic.otherServerErrors], ["hung", traffic.hung], ["connection failure", traffic.connectionFailures]] as const) {
    for (const line of list.slice(0, 5)) settings.log(`${what}: ${line}`);
  }
  for (const f of found.failed.slice(0, 5)) settings.log(`failed ${f.kind} ${f.id}: ${f.error}`);
  for (const w of stuck) settings.log(`stuck ${w.kind} ${w.id}: ${w.status}`);
  return {
    capacityOpsPerSecond: Number(r.capacity.toFixed(2)),
    capacityAnnotatorRoundsPerSecond: Number(r.rounds.toFixed(2)),
    targetOpsPerSecond: Number(r.mixRate.toFixed(2)),
    operations: r.operations,
    closedEarly: traffic.closedEarly,
    skipped: r.skipped,
    kills: r.kills,
    routes: traffic.summary(),
    memory,
    findings: found,
    acknowledged: { calls: acks.calls.length, feedback: acks.feedback.length, submissions: acks.submissions.length, jobs: acks.jobs.length, runs: acks.runs.length },
    requests: traffic.requests,
    loadAverage: { start: r.loadAverage.start.map((l) => Number(l.toFixed(2))), max1m: Number(r.loadAverage.max1m.toFixed(2)), end: r.loadAverage.end.map((l) => Number(l.toFixed(2))) },
    checks,
  };
}
