// The small-dataset SFT sweep (issue #29, docs/decisions.md "Small datasets"): 30 examples of
// bench:learn's SFT task (every answer as <answer>…</answer>) trained on a shipped base by the
// job's own code (SftJob, in-process, as the training thread runs it), then greedy replies to
// bench:learn's 64 held-out prompts: the share in the format and the share right. Each argument is
// one setting as JSON, e.g. '{"name":"console"}' or
// '{"name":"1:1 right","rehearsal":{"perExample":1,"onlyRight":true},"config":{"epochs":5}}';
// SEEDS=1,2,3 (default) picks the training prompts as bench:learn's seeds do; BASE names the shipped
// base (default: the default base), BASE_GGUF another file of its shape and tokenizer in its place.
//   npx tsx scripts/bench-small-sft.ts '{"name":"console"}'
import { greedyGenerate } from "@/lib/engine/train/greedy-generate";
import { annealVocabulary } from "@/lib/engine/tokenizer/training-vocabulary";
import { sampleExamples } from "@/lib/engine/corpus/generate";
import type { TaskFamily } from "@/lib/engine/corpus/example";
import { CONSOLE_SFT_DEFAULTS } from "@/lib/client/sft-plan";
import { SHIPPED_MODELS } from "@/lib/inference/base-models";
import { openTrainingModel } from "@/lib/training/jobs/train/open-training-model";
import type { GradientStepMetrics } from "@/lib/training/gradient-step";
import { heldOutPrompt } from "@/lib/training/sft/sft-evaluation";
import { SftJob } from "@/lib/training/sft/sft-job";
import { sftExampleSchema } from "@/lib/training/sft/tokenize-sft-example";
import { withAnswer } from "@/lib/engine/corpus/example";
import { loadAverage } from "./lib/load-average";

const FAMILIES: TaskFamily[] = ["arithmetic", "strings", "counting", "json"];
const EXAMPLES = 30;
const HELDOUT = 64;
const MAX_TOKENS = 32;
const WRAPPED = /^<answer>([\s\S]*)<\/answer>$/;

interface Setting {
  name: string;
  config?: Record<string, unknown>;
  rehearsal?: { perExample: number; onlyRight: boolean };
}

const settings: Setting[] = process.argv.slice(2).map((a) => JSON.parse(a) as Setting);
const seeds = (process.env.SEEDS ?? "1,2,3").split(",").map(Number);
const heldout = sampleExamples({ families: FAMILIES, split: "heldout", seed: 11, count: HELDOUT });

const BASE = SHIPPED_MODELS.find((m) => m.name === (process.env.BASE ?? SHIPPED_MODELS[0].name));
if (!BASE) throw new Error(`BASE must be one of ${SHIPPED_MODELS.map((m) => m.name).join(", ")}`);
const BASE_GGUF = process.env.BASE_GGUF ?? BASE.gguf;

function open() {
  const { start, model, optimizer } = openTrainingModel({ startGguf: BASE_GGUF });
  return { model, optimizer, vocabulary: annealVocabulary(start.tokenizer!, start.metadata) };
}

/** bench:learn's measurement: a greedy reply in the format ended its turn as <answer>…</answer>;
 *  a right one ended its turn and its content (unwrapped) passes the task's checker. */
function measure(m: ReturnType<typeof open>, forcedPrefix = ""): { format: number; correct: number } {
  const prefix = m.vocabulary.encode(forcedPrefix, false);
  const prompts = heldout.map((e) => [...heldOutPrompt(m.vocabulary.format, sftExampleSchema.parse({ messages: withAnswer(e) })).ids, ...prefix]);
  const replies = greedyGenerate(m.model, prompts, { maxNewTokens: MAX_TOKENS, stopId: m.vocabulary.stopIds });
  let [format, correct] = [0, 0];
  replies.forEach((r, i) => {
    const text = forcedPrefix + new TextDecoder().decode(m.vocabulary.decodeBytes(r.tokens)).trim();
    const inner = WRAPPED.exec(text);
    if (r.stopped && inner) format++;
    if (r.stopped && heldout[i].check(inner ? inner[1] : text)) correct++;
  });
  return { format: format / replies.length, correct: correct / replies.length };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const base = measure(open());
// Whether the base can answer after the format's opening: what the job must otherwise teach it.
const forced = measure(open(), "<answer>");
console.log(`base ${BASE_GGUF}: in format ${pct(base.format)}, correct ${pct(base.correct)}; after a forced "<answer>" ${pct(forced.correct)} correct; load ${loadAverage()[0]}`);
for (const s of settings) {
  for (const seed of seeds) {
    const t0 = performance.now();
    const m = open();
    const data = sampleExamples({ families: FAMILIES, split: "train", seed: 2000 + seed - 1, count: EXAMPLES }).map((e) => ({
      messages: [...e.messages, { role: "assistant", content: `<answer>${e.answer}</answer>` }],
    }));
    const job = new SftJob({
      model: m.model, vocabulary: m.vocabulary, data, validationData: null,
      config: { ...CONSOLE_SFT_DEFAULTS, ...s.config },
      defaults: { defaultSftLearningRate: BASE.learningRates!.sft, defaultRlLearningRate: BASE.learningRates!.rl },
      probe: { base: BASE.name, corpus: BASE.probeCorpus! },
      rehearsal: s.rehearsal ? { corpus: BASE.probeCorpus!, ...s.rehearsal } : null,
    });
    const steps: GradientStepMetrics[] = [];
    for (const step of job.steps(m.optimizer)) steps.push(step);
    const { metrics, report } = job.finish(steps);
    const after = measure(m);
    console.log(
      `${s.name} seed ${seed}: in format ${pct(after.format)}, correct ${pct(after.correct)} (${after.correct - base.correct >= 0 ? "+" : ""}${(100 * (after.correct - base.correct)).toFixed(1)}); ` +
        `rehearsed ${job.rehearsed}, ${steps.length} steps, kept epoch ${metrics["val/best_epoch"]}, probe ${pct(metrics["probe/base_correct"])} → ${pct(metrics["probe/correct"])}; ` +
        `warnings [${report.warnings.map((w) => w.code).join(", ")}]; ${((performance.now() - t0) / 1000).toFixed(1)} s, load ${loadAverage()[0]}`,
    );
  }
}
