// npm run bench:learn — does training learn? Against a real Anneal server (npm start's entry in a
// child process: its own data directory and port), through the HTTP API only, as an ART user:
//  - RL: per seed, a fresh model from the base (BENCH_LEARN_RL_BASE, default anneal/tiny-chat-2),
//    held-out accuracy before, N RL jobs (rollouts with logprobs → trajectory groups → job → events →
//    new step) rewarded by the exact answer to "First word of: <word> <word> <word>", a question the
//    corpus never asks (examples/lib/word-tasks.ts), held-out accuracy after; BENCH_LEARN_RL_TASK
//    picks another word task ("capitalize", for tiny-chat) or "corpus" with _FAMILIES and _LEVELS
//    (curriculum levels for tiny-chat-2);
//  - SFT: per seed, a new reply format (<answer>…</answer>) from an uploaded JSONL: held-out loss
//    of the reference replies, the share of replies in the format and of correct answers, before
//    and after (scripts/lib/bench-learn-sft.ts).
// BENCH_LEARN_MODE: `full` (the default) trains the models' full weights, `lora` a LoRA adapter
// (BENCH_LEARN_LORA: its settings as JSON, default {}: the server's), `both` trains each seed both ways,
// on the same prompts and request seeds, one after the other; each mode must pass on its own.
// Exits 1 when an improvement is not beyond noise. Settings: BENCH_LEARN_* (below). With
// BENCH_LEARN_URL and BENCH_LEARN_API_KEY it uses that server instead of starting one.
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { Anneal, type LoraSettings } from "../examples/lib/anneal";
import { WORD_TASKS } from "../examples/lib/word-tasks";
import type { TaskFamily } from "../lib/engine/corpus/example";
import { runRlSeed, type RlSeedResult, type RlSettings } from "./lib/bench-learn-rl";
import { startBenchServer, type BenchServer } from "./lib/bench-learn-server";
import { heldoutTasks, judgeSft, measureSft, MAX_CORRECT_DROP, FORMAT_REQUIRED, runSft, type SftResult, type SftSettings } from "./lib/bench-learn-sft";
import { mean } from "../examples/lib/rollout";
import { pairedChange, spread } from "./lib/bench-learn-stats";
import { textTable } from "./lib/text-table";

const root = path.resolve(import.meta.dirname, "..");
const env = process.env;
/** A numeric setting; anything but a positive number ends the bench with the setting's name. */
function num(name: string, fallback: number): number {
  if (!env[name]) return fallback;
  const value = Number(env[name]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${JSON.stringify(env[name])}`);
  return value;
}
/** A share from 0 to 1. */
function share(name: string, fallback: number): number {
  if (!env[name]) return fallback;
  const value = Number(env[name]);
  if (!(value >= 0 && value < 1)) throw new Error(`${name} must be a share from 0 to below 1, got ${JSON.stringify(env[name])}`);
  return value;
}
function rlTask(name: string): RlSettings["task"] {
  const names = [...Object.keys(WORD_TASKS), "corpus"];
  if (!names.includes(name)) throw new Error(`BENCH_LEARN_RL_TASK must be one of ${names.join(", ")}, got ${JSON.stringify(name)}`);
  return name as RlSettings["task"];
}
/** More job config fields as a JSON object (BENCH_LEARN_RL_CONFIG, BENCH_LEARN_SFT_CONFIG). */
function extraConfig(name: string): Record<string, unknown> {
  const text = env[name];
  if (!text) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${name} must be a JSON object, e.g. {"scale_rewards":false}; got ${text}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`${name} must be a JSON object, got ${text}`);
  return value as Record<string, unknown>;
}
const families = (name: string, fallback: string) => (env[name] ?? fallback).split(",") as TaskFamily[];
type Mode = "full" | "lora";
function modes(name: string): Mode[] {
  const value = env[name] ?? "full";
  const all: Record<string, Mode[]> = { full: ["full"], lora: ["lora"], both: ["full", "lora"] };
  if (!all[value]) throw new Error(`${name} must be full, lora or both, got ${JSON.stringify(value)}`);
  return all[value];
}
/** A rate for one mode: its own setting, else null (the server's default for the model's mode). */
const rate = (name: string) => (env[name] ? num(name, 0) : null);

const SEEDS = Array.from({ length: num("BENCH_LEARN_SEEDS", 3) }, (_, i) => i + 1);
const PARTS = new Set((env.BENCH_LEARN_PARTS ?? "rl,sft").split(","));
const MODES = modes("BENCH_LEARN_MODE");
const LORA = extraConfig("BENCH_LEARN_LORA") as LoraSettings;
const RL: RlSettings = {
  // The default base learning a request it half-recognises (24% right): it rises to ~99% in 10 jobs.
  // On its curriculum's arithmetic level 1 (55% right) the same settings climb 11–14 points: those
  // held-out prompts are sums and products it has not memorised (docs/decisions.md, "RL on the default base").
  baseModel: env.BENCH_LEARN_RL_BASE ?? "anneal/tiny-chat-2",
  lora: null,
  // A word task (examples/lib/word-tasks.ts), or "corpus": BENCH_LEARN_RL_FAMILIES at curriculum
  // _LEVELS (unset: version 1's mix) with _REWARD.
  task: rlTask(env.BENCH_LEARN_RL_TASK ?? "first-word"),
  families: families("BENCH_LEARN_RL_FAMILIES", "arithmetic"),
  levels: env.BENCH_LEARN_RL_LEVELS ? env.BENCH_LEARN_RL_LEVELS.split(",").map(Number) : undefined,
  reward: (env.BENCH_LEARN_RL_REWARD ?? "exact") as RlSettings["reward"],
  jobs: num("BENCH_LEARN_RL_JOBS", 10),
  // 128 groups × 8 a job: up to 8 gradient steps of ANNEAL_RL_ROWS_PER_STEP (128) trajectories.
  groupsPerJob: num("BENCH_LEARN_RL_GROUPS", 128),
  groupSize: num("BENCH_LEARN_RL_GROUP_SIZE", 8),
  // null: the base model's declared RL rate (its card in models/), as a client that sets nothing gets;
  // BENCH_LEARN_RL_CONFIG adds experimental_config fields as JSON, e.g. {"scale_rewards":false}.
  config: { learning_rate: rate("BENCH_LEARN_RL_LR"), ...extraConfig("BENCH_LEARN_RL_CONFIG") },
  // Half of each job replays the base's curriculum, so the model keeps what it knew (0: the task alone).
  replay: share("BENCH_LEARN_RL_REPLAY", 0.5),
  // The curriculum's longest answers (strings level 3) take up to ~40 tokens.
  maxTokens: num("BENCH_LEARN_RL_MAX_TOKENS", 48),
  heldoutPrompts: 64,
  heldoutSamples: 4,
  pollMs: 200,
};
/** LoRA's SFT peak rate in the bench (BENCH_LEARN_SFT_LORA_LR): 10× full weights' 3e-4 keeps answers as well as
 *  3e-4 does for full weights (1e-3 loses up to 6 points, 1e-2 breaks them; docs/decisions.md "LoRA on tiny-chat-2"). */
const SFT_LORA_LR = 3e-3;
const SFT: SftSettings = {
  baseModel: env.BENCH_LEARN_SFT_BASE ?? "anneal/tiny-chat-2",
  lora: null,
  families: families("BENCH_LEARN_SFT_FAMILIES", "arithmetic,strings,counting,json"),
  examples: num("BENCH_LEARN_SFT_EXAMPLES", 960),
  heldoutPrompts: 64,
  // BENCH_LEARN_SFT_CONFIG adds config fields as JSON, e.g. {"validation_fraction":0.1}.
  config: { batch_size: num("BENCH_LEARN_SFT_BATCH", 8), learning_rate: num("BENCH_LEARN_SFT_LR", 3e-4), epochs: num("BENCH_LEARN_SFT_EPOCHS", 8), ...extraConfig("BENCH_LEARN_SFT_CONFIG") },
  schedule: (env.BENCH_LEARN_SFT_SCHEDULE ?? "cosine") as SftSettings["schedule"],
  maxTokens: 32,
  pollMs: 200,
};
/** The settings a mode trains with: LoRA models get their own rates (RL: null, the server's LoRA
 *  default; SFT: the peak measured for LoRA, docs/decisions.md "LoRA on tiny-chat-2"). */
const RL_OF: Record<Mode, RlSettings> = {
  full: RL,
  lora: { ...RL, lora: LORA, config: { ...RL.config, learning_rate: rate("BENCH_LEARN_RL_LORA_LR") } },
};
const SFT_OF: Record<Mode, SftSettings> = {
  full: SFT,
  lora: { ...SFT, lora: LORA, config: { ...SFT.config, learning_rate: num("BENCH_LEARN_SFT_LORA_LR", SFT_LORA_LR) } },
};
/** An RL seed passes when its held-out reward rose by more than this many standard errors… */
const Z_REQUIRED = 2;
/** …and by at least this much (issue #18: 15 points of accuracy within 10 jobs)… */
const RL_GAIN_REQUIRED = num("BENCH_LEARN_RL_MIN_GAIN", 0.15);
/** …on a task the base model gets right this often (something to climb, not 3% or 100%). */
const RL_BASE_RANGE = [0.2, 0.6] as const;

const fmt = (x: number, digits = 3) => x.toFixed(digits);
const describeMode = (mode: Mode) => (mode === "full" ? "full weights" : `LoRA ${JSON.stringify(LORA)}`);
const secs = (s: number) => `${s.toFixed(0)} s`;
const rateText = (rate: number) => String(Number(rate.toPrecision(3)));

/** The curriculum level whose greedy accuracy fell most. */
function worstLevel(r: RlSeedResult): string {
  const at = (list: number[], level: string) => mean(list.filter((_, i) => r.oldTaskLevels[i] === level));
  const drops = [...new Set(r.oldTaskLevels)].map((level) => ({ level, before: at(r.oldTasksBefore, level), after: at(r.oldTasksAfter, level) }));
  const worst = drops.reduce((a, b) => (b.after - b.before < a.after - a.before ? b : a));
  return `${worst.level}: ${fmt(worst.before, 2)} → ${fmt(worst.after, 2)}`;
}

/** Each seed of each mode (seed by seed in `both`, so paired runs sit side by side). */
const bySeed = <T extends { seed: number; mode: Mode }>(results: T[]) => [...results].sort((a, b) => a.seed - b.seed || MODES.indexOf(a.mode) - MODES.indexOf(b.mode));

function rlTables(results: RlSeedResult[]): boolean {
  const rows = bySeed(results).map((r) => ({ r, change: pairedChange(r.before.perTask, r.after.perTask), kept: pairedChange(r.oldTasksBefore, r.oldTasksAfter) }));
  const signed = (c: { mean: number; standardError: number }) => `${c.mean >= 0 ? "+" : ""}${fmt(c.mean)} ± ${fmt(c.standardError)}`;
  console.log(textTable(
    `RL: held-out mean reward (${RL.heldoutPrompts} prompts × ${RL.heldoutSamples} samples at temperature 1; greedy: mean reward of the greedy reply), before → after ${RL.jobs} jobs`,
    rows.map(({ r, change, kept }) => ({
      seed: String(r.seed),
      mode: r.mode,
      lr: r.learningRate === null ? "-" : rateText(r.learningRate),
      "reward before": fmt(r.before.sampled),
      "reward after": fmt(r.after.sampled),
      change: `${signed(change)} (z ${change.z.toFixed(1)})`,
      "greedy before": fmt(r.before.greedy),
      "greedy after": fmt(r.after.greedy),
      "curriculum greedy (kept?)": `${fmt(mean(r.oldTasksBefore))} → ${fmt(mean(r.oldTasksAfter))} (${signed(kept)})`,
      "worst level": worstLevel(r),
      "rollout reward job 1 → last": `${fmt(r.jobs[0].trainReward)} → ${fmt(r.jobs.at(-1)!.trainReward)}`,
      time: secs(r.seconds),
    })),
  ));
  let ok = true;
  for (const mode of MODES) {
    const own = rows.filter((x) => x.r.mode === mode);
    if (!own.length) continue;
    const ofMode = own.map((x) => x.r);
    const before = spread(ofMode.map((r) => r.before.sampled));
    const after = spread(ofMode.map((r) => r.after.sampled));
    const gain = spread(own.map((x) => x.change.mean));
    const greedyGain = spread(ofMode.map((r) => r.after.greedy - r.before.greedy));
    const kept = spread(own.map((x) => x.kept.mean));
    console.log(`\n${mode}, over ${ofMode.length} seeds (mean ± sample std): reward ${fmt(before.mean)} ± ${fmt(before.std)} → ${fmt(after.mean)} ± ${fmt(after.std)}, ` +
      `change ${fmt(gain.mean)} ± ${fmt(gain.std)}; greedy change ${fmt(greedyGain.mean)} ± ${fmt(greedyGain.std)}; curriculum greedy change ${fmt(kept.mean)} ± ${fmt(kept.std)}`);
    console.log(`rollout reward per job (each job's fresh training prompts, sampled from the weights before it):`);
    for (const r of ofMode) console.log(`  seed ${r.seed}: ${r.jobs.map((j) => fmt(j.trainReward, 2)).join(" ")}`);
    if (RL.replay > 0) {
      console.log(`replayed curriculum (${Math.round(RL.replay * 100)}% of each job's groups), rollout reward per job:`);
      for (const r of ofMode) console.log(`  seed ${r.seed}: ${r.jobs.map((j) => fmt(j.replayReward ?? NaN, 2)).join(" ")}`);
    }
    const ratios = ofMode.flatMap((r) => r.jobs.flatMap((j) => (j.firstStepRatio === null ? [] : [j.firstStepRatio])));
    if (ratios.length) console.log(`serving vs training log π: mean ratio at each job's first step ${fmt(Math.min(...ratios), 5)} … ${fmt(Math.max(...ratios), 5)} (1 = the trainer recomputes the server's logprobs)`);
    const baseOk = ofMode.every((r) => r.before.sampled >= RL_BASE_RANGE[0] && r.before.sampled <= RL_BASE_RANGE[1]);
    const passed = baseOk && own.every(({ change }) => change.z >= Z_REQUIRED && change.mean >= RL_GAIN_REQUIRED);
    console.log(`RL ${mode} ${passed ? "PASS" : "FAIL"}: on a task the base gets right ${RL_BASE_RANGE.join("–")} of the time${baseOk ? "" : " (it does not)"}, every seed's held-out reward ` +
      `${passed ? "rose" : "must rise"} by at least ${RL_GAIN_REQUIRED} and by at least ${Z_REQUIRED} standard errors of the paired per-prompt change`);
    ok &&= passed;
  }
  return ok;
}

function sftTable(results: SftResult[]): boolean {
  const rows = bySeed(results).map((r) => ({ r, verdict: judgeSft(r) }));
  const c = SFT.config;
  console.log(textTable(
    `SFT: <answer>…</answer> format, per seed ${results[0].examples} examples, batch ${c.batch_size}, ${c.epochs ?? 1} epochs, peak lr per mode (${SFT.schedule}); ${SFT.heldoutPrompts} held-out prompts, greedy (T=1: 4 samples a prompt, reported only)`,
    rows.map(({ r, verdict }) => ({
      seed: String(r.seed),
      mode: r.mode,
      "peak lr": rateText(r.peakLearningRate),
      "held-out loss": `${fmt(r.before.loss)} → ${fmt(r.after.loss)}`,
      "in format": `${fmt(r.before.formatShare)} → ${fmt(r.after.formatShare)}`,
      "in format at T=1": `${fmt(r.before.sampledFormatShare)} → ${fmt(r.after.sampledFormatShare)}`,
      correct: `${fmt(r.before.correctShare)} → ${fmt(r.after.correctShare)}`,
      "correct change": `${verdict.change.mean >= 0 ? "+" : ""}${fmt(verdict.change.mean)} ± ${fmt(verdict.change.standardError)}`,
      steps: String(r.gradientSteps),
      warnings: r.warnings.join(",") || "none",
      time: secs(r.seconds),
    })),
  ));
  let ok = true;
  for (const mode of MODES) {
    const own = rows.filter((x) => x.r.mode === mode);
    if (!own.length) continue;
    const format = spread(own.map((x) => x.r.after.formatShare));
    const change = spread(own.map((x) => x.verdict.change.mean));
    const sampled = spread(own.map((x) => x.r.after.sampledFormatShare));
    console.log(`\n${mode}, over ${own.length} seeds (mean ± sample std): in format ${fmt(format.mean)} ± ${fmt(format.std)} (at T=1 ${fmt(sampled.mean)} ± ${fmt(sampled.std)}), correct change ${fmt(change.mean)} ± ${fmt(change.std)}`);
    const passed = own.every((x) => x.verdict.ok);
    console.log(`SFT ${mode} ${passed ? "PASS" : "FAIL"}: every seed ≥ ${FORMAT_REQUIRED * 100}% of held-out replies in the format with correct answers down by at most ${MAX_CORRECT_DROP * 100} points`);
    ok &&= passed;
  }
  return ok;
}

async function main() {
  const runId = randomBytes(3).toString("hex");
  const t0 = performance.now();
  let server: BenchServer | null = null;
  let anneal: Anneal;
  if (env.BENCH_LEARN_URL && env.BENCH_LEARN_API_KEY) {
    anneal = new Anneal(env.BENCH_LEARN_URL, env.BENCH_LEARN_API_KEY);
    console.log(`server: ${env.BENCH_LEARN_URL} (given)`);
  } else {
    server = await startBenchServer(root);
    anneal = new Anneal(server.url, server.apiKey);
    console.log(`server: ${server.url}, data in ${server.dataDir}, healthy after ${secs(server.startSeconds)}`);
  }
  console.log(`load average: ${os.loadavg().map((l) => l.toFixed(2)).join(" / ")} on ${os.cpus().length} CPUs`);
  const log = (line: string) => console.log(`  ${line}`);
  let ok = true;
  try {
    let rl: RlSeedResult[] = [];
    const sft: SftResult[] = [];
    if (PARTS.has("rl")) {
      console.log(`\nRL from ${RL.baseModel}: ${RL.task !== "corpus" ? `${WORD_TASKS[RL.task].prompt(Array.from({ length: WORD_TASKS[RL.task].words }, () => "<word>"))} (exact answer)` : `families ${RL.families.join(",")}${RL.levels?.length ? ` level ${RL.levels.join(",")}` : ""}, reward "${RL.reward}"`}; per seed ${RL.jobs} jobs of ${RL.groupsPerJob} groups × ${RL.groupSize} completions${RL.replay ? ` (${Math.round(RL.replay * 100)}% of the groups replay the curriculum)` : ""} ` +
        `(temperature 1, max ${RL.maxTokens} tokens; reward 0 unless the turn ended); ${MODES.map((m) => `${describeMode(m)}: experimental_config ${JSON.stringify(RL_OF[m].config)}`).join("; ")}`);
      for (const seed of SEEDS) for (const mode of MODES) rl.push(await runRlSeed(anneal, seed, RL_OF[mode], runId, log));
    }
    if (PARTS.has("sft")) {
      console.log(`\nSFT from ${SFT.baseModel}: families ${SFT.families.join(",")}; ${MODES.map((m) => `${describeMode(m)}: config ${JSON.stringify(SFT_OF[m].config)}`).join("; ")}, learning rate ${SFT.schedule}`);
      const before = await measureSft(anneal, SFT.baseModel, heldoutTasks(SFT), SFT);
      log(`sft: base: held-out loss ${fmt(before.loss)}, in format ${fmt(before.formatShare)} (at temperature 1: ${fmt(before.sampledFormatShare)}), correct ${fmt(before.correctShare)}`);
      for (const seed of SEEDS) for (const mode of MODES) sft.push(await runSft(anneal, SFT_OF[mode], seed, before, runId, log));
    }
    if (rl.length) ok = rlTables(rl) && ok;
    if (sft.length) ok = sftTable(sft) && ok;
    console.log(`\ntotal ${secs((performance.now() - t0) / 1000)}; load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(" / ")}`);
    const ofModes = <T>(settings: Record<Mode, T>) => Object.fromEntries(MODES.map((m) => [m, settings[m]]));
    console.log(JSON.stringify({ benchmark: "learn", modes: MODES, rl: { settings: ofModes(RL_OF), results: rl.map(({ before, after, ...r }) => ({ ...r, before: { sampled: before.sampled, greedy: before.greedy }, after: { sampled: after.sampled, greedy: after.greedy } })) }, sft: { settings: ofModes(SFT_OF), results: sft.map(({ before, after, ...r }) => ({ ...r, before: { ...before, correct: undefined }, after: { ...after, correct: undefined } })) } }));
  } finally {
    await server?.stop();
  }
  process.exit(ok ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
