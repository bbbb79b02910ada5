// npm run bench:lora — LoRA on the models people download, in their exact shapes (SmolLM2-135M,
// Qwen2.5-0.5B; random weights in llama.cpp's layout, F16 and Q8_0 made by libllama's quantizer,
// cached under data/bench/lora/): in one run,
//  - train: LoRA SFT tokens/s (every token real and in the loss) through the training job's own
//    loading and step, against llama.cpp's prompt processing of the same file (every core, batch
//    512, the same sequence length), as a ratio; an RL step's time; each case in a process of its
//    own, with its peak RSS;
//  - memory: the 0.5B Q8_0 job's peak RSS at 512 and at 4,096 tokens;
//  - serve: tokens/s with the trained adapter against the bare base at 1 and 8 streams through the
//    serving registry, and a new checkpoint's first answer (from its adapter file existing).
// Then the gates, each with its number, and one JSON line. Exits 1 when a gate fails, 2 on an error.
// BENCH_LORA_QUICK=1: short rows and few steps, a smoke run (gates shown, never failing it);
// BENCH_LORA_PARTS: a comma-separated subset of train,memory,serve; BENCH_LORA_MAX_RSS_GIB: the
// resident set at which a training case is stopped. The load average is printed before and after:
// the machine may be shared.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ModelRegistry } from "../lib/engine/serving/model-registry";
import { trainInChild } from "./lib/bench-lora-child";
import { benchLoraModels, BENCH_SHAPES, type BenchLoraModel, type BenchShape, type WeightType } from "./lib/bench-lora-models";
import { benchAdapterServing, firstAnswer, type AdapterServingResult, type FirstAnswer } from "./lib/bench-lora-serving";
import type { TrainCase, TrainResult } from "./lib/bench-lora-train";
import { benchPromptProcessing, type PromptProcessingResult } from "./lib/bench-prompt-processing";
import { loadAverage } from "./lib/load-average";
import { textTable } from "./lib/text-table";

const root = path.resolve(import.meta.dirname, "..");
const QUICK = process.env.BENCH_LORA_QUICK === "1";
const PARTS = new Set((process.env.BENCH_LORA_PARTS ?? "train,memory,serve").split(","));
const S = QUICK
  ? { seqLen: 64, steps: { "smollm2-135m": 1, "qwen2.5-0.5b": 1 }, rl: { rows: 4, seqLen: 64 }, memory: [64, 256], ppRuns: 2, stream: { promptTokens: 16, maxTokens: 16, trials: 1 }, answer: { promptTokens: 16, maxTokens: 8 } }
  : { seqLen: 512, steps: { "smollm2-135m": 2, "qwen2.5-0.5b": 1 }, rl: { rows: 8, seqLen: 256 }, memory: [512, 4096], ppRuns: 3, stream: { promptTokens: 16, maxTokens: 64, trials: 3 }, answer: { promptTokens: 16, maxTokens: 8 } };
const STREAMS = [1, 8];
const SHAPES = Object.keys(BENCH_SHAPES) as BenchShape[];
const TYPES: WeightType[] = ["f16", "q8_0"];
type ModelKey = { shape: BenchShape; type: WeightType };
/** The job the memory bound is for (its adapter's first answer is measured too)… */
const MEMORY_MODEL: ModelKey = { shape: "qwen2.5-0.5b", type: "q8_0" };
/** …and the model whose adapter serving is measured against its bare base (and which RL trains). */
const SERVED_MODEL: ModelKey = { shape: "smollm2-135m", type: "q8_0" };
const GIB = 1024 ** 3;
const MAX_RSS_BYTES = Number(process.env.BENCH_LORA_MAX_RSS_GIB ?? 8) * GIB;
const GATES = { ratioShape: "smollm2-135m", ratio: { f16: 0.3, q8_0: 0.15 }, rssGib: 3, rssTokens: 4096, adapterServing: 0.85, firstAnswerMs: 1000 } as const;

const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const gib = (bytes: number) => `${fmt(bytes / GIB, 2)} GiB`;
const peak = (r: { peakRssBytes: number; stopped?: boolean }) => (r.stopped ? `> ${gib(MAX_RSS_BYTES)} (stopped)` : gib(r.peakRssBytes));
const keyOf = (m: ModelKey) => `${m.shape}/${m.type}`;
const same = (a: ModelKey, b: ModelKey) => keyOf(a) === keyOf(b);
const train = (c: TrainCase) => trainInChild(c, MAX_RSS_BYTES);

interface Bench {
  models: Record<string, BenchLoraModel>;
  /** Temporary files: adapters and checkpoints. */
  scratch: string;
  /** The adapter written for a model (SERVED_MODEL's and MEMORY_MODEL's), by keyOf. */
  adapters: Record<string, string>;
}

interface TrainRow extends ModelKey {
  seqLen: number;
  ours: TrainResult;
  llamaCpp: PromptProcessingResult;
  ratio: number;
}

interface RlRow extends ModelKey {
  rows: number;
  seqLen: number;
  seconds: number;
}

interface MemoryRow {
  tokens: number;
  peakRssBytes: number;
  stopped?: boolean;
  stepSeconds: number;
}

interface Results {
  train: TrainRow[];
  rl?: RlRow;
  memory: MemoryRow[];
  serving: AdapterServingResult[];
  firstAnswer: (FirstAnswer & ModelKey)[];
}

interface Gate {
  name: string;
  value: string;
  limit: string;
  passed: boolean;
}

const pathOf = (b: Bench, m: ModelKey) => b.models[keyOf(m)].path;
const adapterPathOf = (b: Bench, m: ModelKey) => path.join(b.scratch, `${m.shape}-${m.type}-adapter.gguf`);
const keepsAdapter = (m: ModelKey) => same(m, SERVED_MODEL) || same(m, MEMORY_MODEL);

async function trainPart(b: Bench, r: Results): Promise<void> {
  for (const shape of SHAPES) {
    for (const type of TYPES) {
      const m = { shape, type };
      const llamaCpp = await benchPromptProcessing(pathOf(b, m), BENCH_SHAPES[shape].vocabSize, S.seqLen, S.ppRuns);
      const withRl = same(m, SERVED_MODEL);
      const out = keepsAdapter(m) ? adapterPathOf(b, m) : undefined;
      const ours = await train({ model: pathOf(b, m), sft: { rows: 1, seqLen: S.seqLen, warmUp: 1, steps: S.steps[shape] }, ...(withRl && { rl: S.rl }), ...(out && { adapterOut: out }) });
      if (out && !ours.stopped) b.adapters[keyOf(m)] = out;
      if (withRl) r.rl = { ...m, ...S.rl, seconds: ours.rlStepSeconds ?? NaN };
      if (same(m, MEMORY_MODEL) && S.memory.includes(S.seqLen)) r.memory.push({ tokens: S.seqLen, peakRssBytes: ours.peakRssBytes, stopped: ours.stopped, stepSeconds: ours.stepSeconds[0] });
      r.train.push({ ...m, seqLen: S.seqLen, ours, llamaCpp, ratio: ours.tokensPerSecond / llamaCpp.tokensPerSecond });
      console.log(`  ${shape} ${type}: ours ${fmt(ours.tokensPerSecond, 1)} tok/s, llama.cpp ${fmt(llamaCpp.tokensPerSecond)} tok/s`);
    }
  }
  console.log(textTable(
    `LoRA SFT (rank 16, alpha 32, every projection; 1 row of ${S.seqLen} tokens a step, loss on all) vs llama.cpp prompt processing (${S.seqLen} tokens, batch 512, ${os.availableParallelism()} threads)`,
    r.train.map((t) => ({
      model: t.shape,
      weights: t.type,
      "load s": fmt(t.ours.loadSeconds, 1),
      "s/step": t.ours.stepSeconds.map((s) => fmt(s, 1)).join(", "),
      "ours tok/s": fmt(t.ours.tokensPerSecond, 1),
      "llama.cpp tok/s": fmt(t.llamaCpp.tokensPerSecond),
      ratio: fmt(t.ratio, 3),
      "peak RSS": peak(t.ours),
    })),
  ));
  const rl = r.rl;
  if (rl) console.log(`\nRL step (${rl.shape} ${rl.type}: one group of ${rl.rows} completions, rows of ${rl.seqLen} tokens, the second half sampled): ${fmt(rl.seconds, 2)} s, ${fmt((rl.rows * rl.seqLen) / rl.seconds, 1)} tok/s`);
}

async function memoryPart(b: Bench, r: Results): Promise<void> {
  for (const tokens of S.memory) {
    if (r.memory.some((x) => x.tokens === tokens)) continue;
    const ours = await train({ model: pathOf(b, MEMORY_MODEL), sft: { rows: 1, seqLen: tokens, warmUp: 0, steps: 1 } });
    r.memory.push({ tokens, peakRssBytes: ours.peakRssBytes, stopped: ours.stopped, stepSeconds: ours.stepSeconds[0] });
  }
  r.memory.sort((x, y) => x.tokens - y.tokens);
  console.log(textTable(
    `peak RSS (VmHWM) of a LoRA SFT job on ${MEMORY_MODEL.shape} ${MEMORY_MODEL.type}, one row a step`,
    r.memory.map((x) => ({ tokens: fmt(x.tokens), "peak RSS": peak(x), "s/step": x.stopped ? "-" : fmt(x.stepSeconds, 1) })),
  ));
}

async function servePart(b: Bench, r: Results): Promise<void> {
  // Adapters come from the training cases; without them, one short step writes each.
  for (const m of [SERVED_MODEL, MEMORY_MODEL]) {
    if (b.adapters[keyOf(m)]) continue;
    await train({ model: pathOf(b, m), sft: { rows: 1, seqLen: 16, warmUp: 0, steps: 1 }, adapterOut: adapterPathOf(b, m) });
    b.adapters[keyOf(m)] = adapterPathOf(b, m);
  }
  const registry = new ModelRegistry();
  const served = (m: ModelKey) => ({ path: pathOf(b, m), vocabSize: BENCH_SHAPES[m.shape].vocabSize });
  // Served as a base listed trainable is (F32 KV cache, flash attention off: model-registry.ts).
  for (const m of [SERVED_MODEL, MEMORY_MODEL]) await registry.model(pathOf(b, m), { trainable: true });
  try {
    for (const concurrency of STREAMS) r.serving.push(await benchAdapterServing(registry, served(SERVED_MODEL), b.adapters[keyOf(SERVED_MODEL)], { concurrency, ...S.stream }));
    console.log(textTable(
      `serving ${SERVED_MODEL.shape} ${SERVED_MODEL.type} (ModelRegistry + generate, greedy; ${S.stream.promptTokens} + ${S.stream.maxTokens} tokens a stream; median of ${S.stream.trials} alternating pairs)`,
      r.serving.map((s) => ({ streams: String(s.concurrency), "base tok/s": fmt(s.baseTokensPerSecond, 1), "adapter tok/s": fmt(s.adapterTokensPerSecond, 1), "adapter ÷ base": fmt(s.ratio, 3) })),
    ));
    for (const m of [SERVED_MODEL, MEMORY_MODEL]) r.firstAnswer.push({ ...m, ...(await firstAnswer(registry, served(m), b.adapters[keyOf(m)], b.scratch, S.answer)) });
    console.log(textTable(
      `a new checkpoint's first answer (${S.answer.promptTokens} + ${S.answer.maxTokens} tokens, the base serving): from its adapter file existing`,
      r.firstAnswer.map((a) => ({ model: a.shape, weights: a.type, "first answer ms": fmt(a.ms), "of which first token ms": fmt(a.firstTokenMs), "same answer again ms": fmt(a.warmMs) })),
    ));
  } finally {
    await registry.dispose();
  }
}

function gatesOf(r: Results): Gate[] {
  const gates: Gate[] = [];
  for (const type of TYPES) {
    const t = r.train.find((x) => x.shape === GATES.ratioShape && x.type === type);
    if (t) gates.push({ name: `LoRA SFT ÷ llama.cpp prompt processing, ${t.shape} ${type}`, value: fmt(t.ratio, 3), limit: `≥ ${GATES.ratio[type]}`, passed: t.ratio >= GATES.ratio[type] });
  }
  const rss = r.memory.find((x) => x.tokens === GATES.rssTokens);
  if (rss) gates.push({ name: `peak RSS, ${MEMORY_MODEL.shape} ${MEMORY_MODEL.type} at ${fmt(GATES.rssTokens)} tokens`, value: peak(rss), limit: `≤ ${GATES.rssGib} GiB`, passed: !rss.stopped && rss.peakRssBytes <= GATES.rssGib * GIB });
  for (const s of r.serving) gates.push({ name: `adapter ÷ base serving at ${s.concurrency} stream${s.concurrency > 1 ? "s" : ""}`, value: fmt(s.ratio, 3), limit: `≥ ${GATES.adapterServing}`, passed: s.ratio >= GATES.adapterServing });
  for (const a of r.firstAnswer) gates.push({ name: `first answer of a new checkpoint, ${a.shape} ${a.type}`, value: `${fmt(a.ms)} ms`, limit: `≤ ${fmt(GATES.firstAnswerMs)} ms`, passed: a.ms <= GATES.firstAnswerMs });
  return gates;
}

async function main() {
  // llama.cpp warns at each load of a Qwen vocabulary (its plain token "</s>" looks like a control
  // token), as it does for the real files: noise here.
  process.env.ANNEAL_LOG_LEVEL ??= "error";
  const loadBefore = loadAverage();
  const t0 = performance.now();
  console.log(`bench:lora${QUICK ? " (quick)" : ""}: parts ${[...PARTS].join(",")}; load average (1/5/15 min) ${loadBefore.join(" / ")} on ${os.availableParallelism()} CPUs`);
  const b: Bench = { models: {}, scratch: fs.mkdtempSync(path.join(os.tmpdir(), "anneal-bench-lora-")), adapters: {} };
  const r: Results = { train: [], memory: [], serving: [], firstAnswer: [] };
  try {
    for (const shape of SHAPES) {
      for (const m of benchLoraModels(path.join(root, "data/bench/lora"), shape, TYPES)) b.models[keyOf(m)] = m;
      const made = b.models[keyOf({ shape, type: TYPES[0] })].madeSeconds;
      const sizes = TYPES.map((type) => `${type} ${fmt(fs.statSync(pathOf(b, { shape, type })).size / 1e6)} MB`);
      console.log(`${shape}: ${made ? `made in ${fmt(made)} s` : "cached"} (${sizes.join(", ")})`);
    }
    if (PARTS.has("train")) await trainPart(b, r);
    if (PARTS.has("memory")) await memoryPart(b, r);
    if (PARTS.has("serve")) await servePart(b, r);
  } finally {
    fs.rmSync(b.scratch, { recursive: true, force: true });
  }

  const gates = gatesOf(r);
  if (!gates.length) console.log("\nno gate measured (see BENCH_LORA_PARTS)");
  else console.log(textTable(`gates${QUICK ? " (quick run: shown, not applied)" : ""}`, gates.map((g) => ({ gate: g.name, value: g.value, limit: g.limit, result: g.passed ? "PASS" : "FAIL" }))));
  const loadAfter = loadAverage();
  console.log(`\ntotal ${fmt((performance.now() - t0) / 1000)} s; load average (1/5/15 min) after: ${loadAfter.join(" / ")}`);
  console.log(JSON.stringify({ benchmark: "lora", quick: QUICK, parts: [...PARTS], loadAverage: { before: loadBefore, after: loadAfter }, ...r, gates }));
  process.exit(QUICK || gates.every((g) => g.passed) ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
