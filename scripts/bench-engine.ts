// Benchmark of the embedded engine on one model (models/tiny-chat.gguf, else a ~2M-parameter
// random fixture): training tokens/s and GFLOP/s per kernel path, serving tokens/s for 1 and 16
// concurrent sequences through node-llama-cpp, and our forward pass's speed relative to llama.cpp's
// on the same prompt in the same process. Prints tables, then one JSON line with every number.
// The machine may be shared: the load average is printed before and after.
//   npx tsx scripts/bench-engine.ts
import os from "node:os";
import { selectKernels } from "../lib/engine/kernels";
import { ModelRegistry } from "../lib/engine/serving/model-registry";
import { benchForward } from "./lib/bench-forward";
import { benchInference } from "./lib/bench-inference";
import { loadAverage } from "./lib/load-average";
import { benchModel } from "./lib/bench-model";
import { randomTokens } from "./lib/bench-tokens";
import { benchTraining } from "./lib/bench-training";
import { textTable } from "./lib/text-table";

const CONCURRENCY = [1, 16];
const int = (n: number) => Math.round(n).toLocaleString("en");

const loadBefore = loadAverage();
const model = benchModel();
const { config } = model.contents;
const native = selectKernels("native");
console.log(`model: ${model.source} (${model.path}), ${int(model.parameters)} parameters`);
console.log(`config: ${JSON.stringify(config)}`);
console.log(`load average (1/5/15 min): ${loadBefore.join(" / ")} on ${os.availableParallelism()} CPUs`);

// The TypeScript path is ~20× slower: one small batch keeps its run short (tokens/s is comparable).
const seqLen = Math.min(256, config.contextLength);
const training = [benchTraining(config, native, { batchSize: 4, seqLen, steps: 5 }), benchTraining(config, selectKernels("ts"), { batchSize: 1, seqLen, steps: 2 })];
console.log(
  textTable("training (forward + backward + AdamW, 1 thread)", training.map((t) => ({
    kernels: t.kernels,
    batch: `${t.batchSize}×${t.seqLen}`,
    steps: String(t.steps),
    "s/step": t.secondsPerStep.toFixed(3),
    "fwd/bwd/opt ms": `${int(t.forwardMs)} / ${int(t.backwardMs)} / ${int(t.optimizerMs)}`,
    "tokens/s": int(t.tokensPerSecond),
    "GFLOP/s": t.gflops.toFixed(1),
  }))),
);

const registry = new ModelRegistry({ sequences: Math.max(...CONCURRENCY) });
try {
  // A prompt must leave room in the context (llama.cpp shifts a full one, dropping its start).
  const promptTokens = Math.min(128, config.contextLength - 1);
  const forward = await benchForward(registry, model, native, randomTokens(promptTokens, config.vocabSize, 3), 20);
  console.log(
    textTable(`forward pass, one ${forward.promptTokens}-token prompt, ${forward.runs} runs each (1 thread)`, [
      { engine: `ours (LlamaModel.forward, ${native.name})`, "tokens/s": int(forward.oursTokensPerSecond) },
      { engine: "llama.cpp (prompt evaluation)", "tokens/s": int(forward.llamaCppTokensPerSecond) },
    ]),
  );
  console.log(`ours / llama.cpp: ${forward.ratio.toFixed(2)}×; max |Δ logit| of the next token: ${forward.maxLogitDifference.toExponential(1)}`);

  const inference = [];
  for (const concurrency of CONCURRENCY) inference.push(await benchInference(registry, { path: model.path, vocabSize: config.vocabSize }, { concurrency, promptTokens: 16, maxTokens: 96 }));
  console.log(
    textTable("inference (ModelRegistry + generate, greedy, llama.cpp, 1 thread per context)", inference.map((r) => ({
      sequences: String(r.concurrency),
      "prompt + generated": `${r.promptTokens} + ${r.maxTokens}`,
      seconds: r.seconds.toFixed(2),
      "tokens/s": int(r.tokensPerSecond),
      "tokens/s per sequence": int(r.perSequenceTokensPerSecond),
    }))),
  );

  const loadAfter = loadAverage();
  console.log(`\nload average (1/5/15 min) after: ${loadAfter.join(" / ")}`);
  const modelInfo = { source: model.source, path: model.path, parameters: model.parameters, config };
  console.log(JSON.stringify({ benchmark: "engine", model: modelInfo, loadAverage: { before: loadBefore, after: loadAfter }, training, forward, inference }));
} finally {
  await registry.dispose();
  model.remove();
}
