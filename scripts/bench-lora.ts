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
// BENCH_LORA_PARTS: a comma-separated subset of train,memory,serve. The load average is printed
// before and after: the machine may be shared.
import { fork } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ModelRegistry } from "../lib/engine/serving/model-registry";
import { benchLoraModels, BENCH_SHAPES, type BenchLoraModel, type BenchShape, type WeightType } from "./lib/bench-lora-models";
import { benchAdapterServing, firstAnswer, type AdapterServingResult, type FirstAnswer } from "./lib/bench-lora-serving";
import type { TrainCase, TrainResult } from "./lib/bench-lora-train";
import { benchPromptProcessing, type PromptProcessingResult } from "./lib/bench-prompt-processing";
import { loadAverage } from "./lib/load-average";
import { procMemory } from "./lib/proc-memory";
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
/** The job the memory bound is for, and the model adapters are served on. */
const MEMORY_MODEL = { shape: "qwen2.5-0.5b", type: "q8_0" } as const;
const SERVED_MODEL = { shape: "smollm2-135m", type: "q8_0" } as const;
const GIB = 1024 ** 3;
const GATES = { ratio: { f16: 0.3, q8_0: 0.15 }, rssGib: 3, rssTokens: 4096, adapterServing: 0.85, firstAnswerMs: 1000 };

const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const gib = (bytes: number) => `${fmt(bytes / GIB, 2)} GiB`;
const peak = (r: { peakRssBytes: number; stopped?: boolean }) => (r.stopped ? `> ${gib(MAX_RSS_BYTES)} (stopped)` : gib(r.peakRssBytes));

/** A case whose resident set passes this is stopped (BENCH_LORA_MAX_RSS_GIB): on a shared machine a
 *  job far over the bound would take the others' memory, and its verdict is known. */
const MAX_RSS_BYTES = Number(process.env.BENCH_LORA_MAX_RSS_GIB ?? 8) * GIB;

/** Runs a training case in a process of its own (its peak RSS is the case's). */
function trainInChild(c: TrainCase): Promise<TrainResult> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(root, "scripts/lib/bench-lora-train.ts"), [], { execArgv: ["--import", "tsx"] });
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      clearInterval(watch);
      done();
    };
    const watch = setInterval(() => {
      const rss = procMemory(child.pid!, "VmRSS") ?? 0;
      if (rss <= MAX_RSS_BYTES) return;
      child.kill("SIGKILL");
      settle(() => resolve({ loadSeconds: NaN, stepSeconds: [NaN], tokensPerSecond: NaN, peakRssBytes: rss, stopped: true }));
    }, 200);
    child.once("message", (reply: { result?: TrainResult; error?: string }) =>
      settle(() => (reply.result ? resolve(reply.result) : reject(new Error(`training case ${path.basename(c.model)}: ${reply.error}`)))),
    );
    child.once("exit", (code, signal) => settle(() => reject(new Error(`training case ${path.basename(c.model)} exited (${code ?? signal}) without a result`))));
    child.send(c);
  });
}

interface TrainRow {
  shape: BenchShape;
  type: WeightType;
  seqLen: number;
  ours: TrainResult;
  llamaCpp: PromptProcessingResult;
  ratio: number;
}

interface MemoryRow {
  tokens: number;
  peakRssBytes: number;
  stopped?: boolean;
  stepSeconds: number;
}

interface Gate {
  name: string;
  value: string;
  limit: string;
  passed: boolean;
}

async function main() {
  // llama.cpp warns at each load of a Qwen vocabulary (its plain token "</s>" looks like a control
  // token), as it does for the real files: noise here.
  process.env.ANNEAL_LOG_LEVEL ??= "error";
  const loadBefore = loadAverage();
  const t0 = performance.now();
  console.log(`bench:lora${QUICK ? " (quick)" : ""}: parts ${[...PARTS].join(",")}; load average (1/5/15 min) ${loadBefore.join(" / ")} on ${os.availableParallelism()} CPUs`);
  const modelDir = path.join(root, "data/bench/lora");
  const models: Record<string, BenchLoraModel> = {};
  for (const shape of SHAPES) {
    for (const m of benchLoraModels(modelDir, shape, TYPES)) models[`${m.shape}/${m.type}`] = m;
    const made = models[`${shape}/f16`].madeSeconds;
    console.log(`${shape}: ${made ? `made in ${fmt(made)} s` : "cached"} (${TYPES.map((t) => `${t} ${fmt(fs.statSync(models[`${shape}/${t}`].path).size / 1e6)} MB`).join(", ")})`);
  }
  const model = (m: { shape: BenchShape; type: WeightType }) => models[`${m.shape}/${m.type}`];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-bench-lora-"));
  /** The adapter a training case wrote for a model (the served one's and the memory job's). */
  const adapters: Record<string, string> = {};
  const adapterOut = (shape: BenchShape, type: WeightType) =>
    (shape === SERVED_MODEL.shape && type === SERVED_MODEL.type) || (shape === MEMORY_MODEL.shape && type === MEMORY_MODEL.type) ? path.join(scratch, `${shape}-${type}-adapter.gguf`) : undefined;

  const train: TrainRow[] = [];
  let rl: { shape: BenchShape; type: WeightType; rows: number; seqLen: number; seconds: number } | undefined;
  const memory: MemoryRow[] = [];
  const serving: AdapterServingResult[] = [];
  const answers: (FirstAnswer & { shape: BenchShape; type: WeightType })[] = [];
  try {
    if (PARTS.has("train")) {
      for (const shape of SHAPES) {
        for (const type of TYPES) {
          const m = model({ shape, type });
          const llamaCpp = await benchPromptProcessing(m.path, BENCH_SHAPES[shape].vocabSize, S.seqLen, S.ppRuns);
          const withRl = shape === SERVED_MODEL.shape && type === SERVED_MODEL.type;
          const out = adapterOut(shape, type);
          const ours = await trainInChild({
            model: m.path, sft: { rows: 1, seqLen: S.seqLen, warmUp: 1, steps: S.steps[shape] }, ...(withRl && { rl: S.rl }), ...(out && { adapterOut: out }),
          });
          if (out) adapters[`${shape}/${type}`] = out;
          if (withRl) rl = { shape, type, ...S.rl, seconds: ours.rlStepSeconds! };
          if (shape === MEMORY_MODEL.shape && type === MEMORY_MODEL.type && S.memory.includes(S.seqLen)) {
            memory.push({ tokens: S.seqLen, peakRssBytes: ours.peakRssBytes, stopped: ours.stopped, stepSeconds: ours.stepSeconds[0] });
          }
          train.push({ shape, type, seqLen: S.seqLen, ours, llamaCpp, ratio: ours.tokensPerSecond / llamaCpp.tokensPerSecond });
          console.log(`  ${shape} ${type}: ours ${fmt(ours.tokensPerSecond, 1)} tok/s, llama.cpp ${fmt(llamaCpp.tokensPerSecond)} tok/s`);
        }
      }
      console.log(textTable(
        `LoRA SFT (rank 16, alpha 32, every projection; 1 row of ${S.seqLen} tokens a step, loss on all) vs llama.cpp prompt processing (${S.seqLen} tokens, batch 512, ${os.availableParallelism()} threads)`,
        train.map((r) => ({
          model: r.shape,
          weights: r.type,
          "load s": fmt(r.ours.loadSeconds, 1),
          "s/step": r.ours.stepSeconds.map((s) => fmt(s, 1)).join(", "),
          "ours tok/s": fmt(r.ours.tokensPerSecond, 1),
          "llama.cpp tok/s": fmt(r.llamaCpp.tokensPerSecond),
          ratio: fmt(r.ratio, 3),
          "peak RSS": peak(r.ours),
        })),
      ));
      if (rl) console.log(`\nRL step (${rl.shape} ${rl.type}: one group of ${rl.rows} completions, rows of ${rl.seqLen} tokens, the second half sampled): ${fmt(rl.seconds, 2)} s, ${fmt((rl.rows * rl.seqLen) / rl.seconds, 1)} tok/s`);
    }

    if (PARTS.has("memory")) {
      const m = model(MEMORY_MODEL);
      for (const tokens of S.memory) {
        if (memory.some((r) => r.tokens === tokens)) continue;
        const r = await trainInChild({ model: m.path, sft: { rows: 1, seqLen: tokens, warmUp: 0, steps: 1 } });
        memory.push({ tokens, peakRssBytes: r.peakRssBytes, stopped: r.stopped, stepSeconds: r.stepSeconds[0] });
      }
      memory.sort((a, b) => a.tokens - b.tokens);
      console.log(textTable(
        `peak RSS (VmHWM) of a LoRA SFT job on ${MEMORY_MODEL.shape} ${MEMORY_MODEL.type}, one row a step`,
        memory.map((r) => ({ tokens: fmt(r.tokens), "peak RSS": peak(r), "s/step": r.stopped ? "-" : fmt(r.stepSeconds, 1) })),
      ));
    }

    if (PARTS.has("serve")) {
      // Adapters come from the training cases; a run without them trains one short step for each.
      for (const m of [SERVED_MODEL, MEMORY_MODEL]) {
        const key = `${m.shape}/${m.type}`;
        if (adapters[key]) continue;
        adapters[key] = adapterOut(m.shape, m.type)!;
        await trainInChild({ model: model(m).path, sft: { rows: 1, seqLen: 16, warmUp: 0, steps: 1 }, adapterOut: adapters[key] });
      }
      const registry = new ModelRegistry();
      try {
        const served = { path: model(SERVED_MODEL).path, vocabSize: BENCH_SHAPES[SERVED_MODEL.shape].vocabSize };
        for (const concurrency of STREAMS) serving.push(await benchAdapterServing(registry, served, adapters[`${SERVED_MODEL.shape}/${SERVED_MODEL.type}`], { concurrency, ...S.stream }));
        console.log(textTable(
          `serving ${SERVED_MODEL.shape} ${SERVED_MODEL.type} (ModelRegistry + generate, greedy; ${S.stream.promptTokens} + ${S.stream.maxTokens} tokens a stream; median of ${S.stream.trials} alternating pairs)`,
          serving.map((r) => ({ streams: String(r.concurrency), "base tok/s": fmt(r.baseTokensPerSecond, 1), "adapter tok/s": fmt(r.adapterTokensPerSecond, 1), "adapter ÷ base": fmt(r.ratio, 3) })),
        ));
        for (const m of [SERVED_MODEL, MEMORY_MODEL]) {
          const base = { path: model(m).path, vocabSize: BENCH_SHAPES[m.shape].vocabSize };
          answers.push({ ...m, ...(await firstAnswer(registry, base, adapters[`${m.shape}/${m.type}`], scratch, S.answer)) });
        }
        console.log(textTable(
          `a new checkpoint's first answer (${S.answer.promptTokens} + ${S.answer.maxTokens} tokens, the base loaded): from its adapter file existing`,
          answers.map((a) => ({ model: a.shape, weights: a.type, "first answer ms": fmt(a.ms), "of which first token ms": fmt(a.firstTokenMs), "same answer again ms": fmt(a.warmMs) })),
        ));
      } finally {
        await registry.dispose();
      }
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }

  const gates: Gate[] = [];
  for (const type of TYPES) {
    const r = train.find((x) => x.shape === "smollm2-135m" && x.type === type);
    if (r) gates.push({ name: `LoRA SFT ÷ llama.cpp prompt processing, smollm2-135m ${type}`, value: fmt(r.ratio, 3), limit: `≥ ${GATES.ratio[type]}`, passed: r.ratio >= GATES.ratio[type] });
  }
  const rss = memory.find((r) => r.tokens === GATES.rssTokens);
  if (rss) gates.push({ name: `peak RSS, ${MEMORY_MODEL.shape} ${MEMORY_MODEL.type} at ${fmt(GATES.rssTokens)} tokens`, value: peak(rss), limit: `≤ ${GATES.rssGib} GiB`, passed: !rss.stopped && rss.peakRssBytes <= GATES.rssGib * GIB });
  for (const r of serving) gates.push({ name: `adapter ÷ base serving at ${r.concurrency} stream${r.concurrency > 1 ? "s" : ""}`, value: fmt(r.ratio, 3), limit: `≥ ${GATES.adapterServing}`, passed: r.ratio >= GATES.adapterServing });
  for (const a of answers) gates.push({ name: `first answer of a new checkpoint, ${a.shape} ${a.type}`, value: `${fmt(a.ms)} ms`, limit: `≤ ${fmt(GATES.firstAnswerMs)} ms`, passed: a.ms <= GATES.firstAnswerMs });
  if (!gates.length) console.log("\nno gate measured (see BENCH_LORA_PARTS)");
  else console.log(textTable(`gates${QUICK ? " (quick run: shown, not applied)" : ""}`, gates.map((g) => ({ gate: g.name, value: g.value, limit: g.limit, result: g.passed ? "PASS" : "FAIL" }))));
  const passed = gates.every((g) => g.passed);
  const loadAfter = loadAverage();
  console.log(`\ntotal ${fmt((performance.now() - t0) / 1000)} s; load average (1/5/15 min) after: ${loadAfter.join(" / ")}`);
  console.log(JSON.stringify({ benchmark: "lora", quick: QUICK, parts: [...PARTS], loadAverage: { before: loadBefore, after: loadAfter }, train, rl, memory, serving, firstAnswer: answers, gates }));
  process.exit(QUICK || passed ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
