// Pretrains Anneal's own small chat models reproducibly (fixed seeds): tiny-chat-2 by default,
// `--base tiny-chat` for the first tiny-chat; `--base tiny-chat-3` (the default base; docs/decisions.md)
// continues the shipped tiny-chat-2 on conversations that ask for reply formats.
//   1. trains the byte-level BPE tokenizer on the task corpus (a continued run keeps its start's);
//   2. trains a llama model on packed ChatML conversations from the corpus, with warmup + cosine LR,
//      a progress line on stderr, and resumable checkpoints in the work directory;
//   3. writes models/<base>.gguf, measures held-out accuracy per task family (and level) and the SFT
//      learning rate, and writes the model card models/<base>.md.
//   npx tsx scripts/pretrain.ts [--base tiny-chat-2|tiny-chat|tiny-chat-3] [--resume] [--work-dir build/pretrain/<base>]
//     [--steps N] [--train-only] [--dim D --layers L --heads H --ffn F --vocab V --batch B --lr X --loss-tokens assistant|all]
//     [--reply-formats SHARE]
// --train-only (for pilots) stops after training. With --resume the saved run's settings are used.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { sampleExamples, tokenizerTrainingTexts } from "../lib/engine/corpus/generate";
import { withAnswer } from "../lib/engine/corpus/example";
import { defaultKernels } from "../lib/engine/kernels";
import { AdamW } from "../lib/engine/model/adamw";
import { LlamaModel } from "../lib/engine/model/llama-model";
import { chatBatch, trainingBatch } from "../lib/engine/pretrain/corpus-batches";
import { loadCheckpoint, saveCheckpoint } from "../lib/engine/pretrain/checkpoint";
import { readLlamaGguf, type LlamaGgufContents } from "../lib/engine/gguf/llama-gguf";
import { baseModelFiles } from "../lib/engine/pretrain/tiny-chat-files";
import { finishBaseModel } from "../lib/engine/pretrain/finish";
import { learningRate } from "../lib/engine/pretrain/lr-schedule";
import { formatDuration, progressLine } from "../lib/engine/pretrain/progress-line";
import { BASE_SETTINGS, savedSettings, type RunSettings, type Trained } from "../lib/engine/pretrain/run-settings";
import { CHATML_SPECIALS } from "../lib/engine/tokenizer/chatml";
import { Tokenizer } from "../lib/engine/tokenizer/tokenizer";
import { trainBpe } from "../lib/engine/tokenizer/train-bpe";
import { batchLoss, trainStep } from "../lib/engine/train/train-step";

const { values: args } = parseArgs({
  options: {
    base: { type: "string", default: "tiny-chat-2" },
    resume: { type: "boolean", default: false },
    "work-dir": { type: "string" },
    "train-only": { type: "boolean", default: false },
    steps: { type: "string" },
    dim: { type: "string" },
    layers: { type: "string" },
    heads: { type: "string" },
    ffn: { type: "string" },
    vocab: { type: "string" },
    batch: { type: "string" },
    lr: { type: "string" },
    "loss-tokens": { type: "string" },
    "reply-formats": { type: "string" },
  },
});
const defaults = BASE_SETTINGS[args.base!];
if (!defaults) throw new Error(`--base must be one of ${Object.keys(BASE_SETTINGS).join(", ")}`);
const workDir = args["work-dir"] ?? path.join("build/pretrain", args.base!);
const files = { settings: path.join(workDir, "run.json"), tokenizer: path.join(workDir, "tokenizer.json"), checkpoint: path.join(workDir, "checkpoint.bin") };
const log = (line: string) => process.stderr.write(`${line}\n`);

function settingsFromArgs(): RunSettings {
  const d = defaults;
  const num = (v: string | undefined, fallback: number) => (v === undefined ? fallback : Number(v));
  const lossTokens = args["loss-tokens"] ?? d.lossTokens;
  if (lossTokens !== "assistant" && lossTokens !== "all") throw new Error("--loss-tokens must be assistant or all");
  const heads = num(args.heads, d.model.nHeads);
  return {
    ...d,
    model: { ...d.model, dim: num(args.dim, d.model.dim), nLayers: num(args.layers, d.model.nLayers), nHeads: heads, nKvHeads: heads, ffnDim: num(args.ffn, d.model.ffnDim), vocabSize: num(args.vocab, d.model.vocabSize) },
    batchSize: num(args.batch, d.batchSize),
    lossTokens,
    replyFormats: num(args["reply-formats"], d.replyFormats ?? 0),
    schedule: { ...d.schedule, peak: num(args.lr, d.schedule.peak), totalSteps: num(args.steps, d.schedule.totalSteps) },
  };
}

/** The shipped base a continued run starts from (its file is read once). */
let startingFile: LlamaGgufContents | undefined;
function startingModel(settings: RunSettings): LlamaGgufContents | undefined {
  if (!settings.startFrom) return undefined;
  startingFile ??= readLlamaGguf(baseModelFiles(settings.startFrom).gguf);
  return startingFile;
}

function prepareRun(): { settings: RunSettings; tokenizer: Tokenizer } {
  if (args.resume) {
    const settings = savedSettings(JSON.parse(fs.readFileSync(files.settings, "utf8")) as Partial<RunSettings>);
    return { settings, tokenizer: Tokenizer.fromJSON(JSON.parse(fs.readFileSync(files.tokenizer, "utf8"))) };
  }
  const settings = settingsFromArgs();
  const started = performance.now();
  const tokenizer = startingModel(settings)?.tokenizer ?? trainBpe(tokenizerTrainingTexts(settings.tokenizerTexts, settings.tokenizerSeed, settings.corpusVersion), settings.model.vocabSize, CHATML_SPECIALS);
  log(settings.startFrom ? `continuing ${settings.startFrom}: its tokenizer and weights` : `tokenizer: ${tokenizer.vocabSize} tokens in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (fs.existsSync(files.checkpoint)) log(`starting afresh: discarding the run in ${workDir} (--resume continues it)`);
  fs.rmSync(workDir, { recursive: true, force: true });
  fs.mkdirSync(workDir, { recursive: true });
  fs.writeFileSync(files.settings, JSON.stringify(settings, null, 2));
  fs.writeFileSync(files.tokenizer, JSON.stringify(tokenizer));
  return { settings, tokenizer };
}

const { settings, tokenizer } = prepareRun();
const start = startingModel(settings);
const config = start?.config ?? { ...settings.model, vocabSize: tokenizer.vocabSize };
const model = start ? new LlamaModel(config, { weights: start.weights }) : new LlamaModel(config, { seed: settings.initSeed });
const optimizer = new AdamW(model.params, { weightDecay: settings.weightDecay });
let state: Trained = { step: 0, tokens: 0, conversations: 0, trainingSeconds: 0, lastLoss: NaN };
if (args.resume) {
  state = loadCheckpoint<Trained>(files.checkpoint, model.params, optimizer);
  log(`resumed at step ${state.step}`);
}
const total = settings.schedule.totalSteps;
log(`${settings.name}: ${model.params.count.toLocaleString("en")} parameters, ${JSON.stringify(config)}; ${total} steps of ${settings.batchSize}×${settings.seqLen}, loss on ${settings.lossTokens} tokens; kernels ${defaultKernels().name}`);

const heldout = chatBatch(tokenizer, sampleExamples({ seed: settings.corpusSeed, split: "heldout", count: 128, version: settings.corpusVersion }).map(withAnswer));
const heldoutLoss = () => batchLoss(model, heldout);

const session = { started: performance.now(), tokens: 0 };
const shape = { batchSize: settings.batchSize, seqLen: settings.seqLen, lossTokens: settings.lossTokens };
const save = () => saveCheckpoint(files.checkpoint, state, model.params, optimizer);
let smoothLoss = state.lastLoss;
while (state.step < total) {
  const stepStarted = performance.now();
  const batch = trainingBatch(tokenizer, shape, settings.corpusSeed, state.step, { version: settings.corpusVersion, replyFormats: settings.replyFormats });
  const { loss } = trainStep(model, optimizer, batch, learningRate(settings.schedule, state.step));
  const realTokens = batch.realTokens;
  smoothLoss = Number.isNaN(smoothLoss) ? loss : 0.95 * smoothLoss + 0.05 * loss;
  state = {
    step: state.step + 1,
    tokens: state.tokens + realTokens,
    conversations: state.conversations + batch.conversations,
    trainingSeconds: state.trainingSeconds + (performance.now() - stepStarted) / 1000,
    lastLoss: smoothLoss,
  };
  session.tokens += realTokens;
  if (state.step % settings.checkpointEvery === 0 || state.step === total) {
    save();
    log(`step ${state.step}: held-out loss ${heldoutLoss().toFixed(4)} (checkpoint saved)`);
  }
  if (state.step % 10 === 0 || state.step === total) {
    const tokensPerSecond = session.tokens / ((performance.now() - session.started) / 1000);
    const tokensPerStep = state.tokens / state.step;
    log(progressLine({ step: state.step, totalSteps: total, loss: smoothLoss, tokensPerSecond, etaSeconds: ((total - state.step) * tokensPerStep) / tokensPerSecond }));
  }
}
log(`trained ${state.tokens.toLocaleString("en")} tokens (${state.conversations.toLocaleString("en")} conversations) in ${formatDuration(state.trainingSeconds)}`);

if (!args["train-only"]) {
  finishBaseModel({ model, tokenizer, settings, trained: state, heldoutLoss: heldoutLoss(), log });
}
