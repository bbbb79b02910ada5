// bench:learn, SFT part: teach the base model a reply format it never produces — every answer wrapped
// as <answer>…</answer> — from a JSONL file uploaded with POST /v1/files, through one SFT job per
// seed (seeds differ in the training prompts). Measured on the same held-out prompts before and
// after: the loss of the held-out reference replies (prompt_logprobs, see replyNll), the share of
// greedy replies in the format, and the share of correct answers (the old tasks: does it forget?),
// with the paired per-prompt change's standard error. Issue #18's criterion: ≥ 90% in the format
// while correct answers drop by at most 5 points, on every seed.
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { Anneal, LoraSettings, SftConfig } from "../../examples/lib/anneal";
import { inferenceName } from "../../examples/lib/anneal";
import { mapLimit, mean } from "../../examples/lib/rollout";
import { corpusTasks, type Task } from "../../examples/lib/tasks";
import type { TaskFamily } from "../../lib/engine/corpus/example";
import { validationCount } from "../../lib/training/sft/validation-split";
import { pairedChange, type Change } from "./bench-learn-stats";

export interface SftSettings {
  baseModel: string;
  /** The models train a LoRA adapter with these settings (`{}`: the server's defaults); null: full weights. */
  lora: LoraSettings | null;
  families: TaskFamily[];
  examples: number;
  heldoutPrompts: number;
  /** The job's config; `schedule: "cosine"` sends learning_rate as one rate per step (10% warmup,
   *  cosine to a tenth), the client's own schedule the contract allows. */
  config: SftConfig;
  schedule: "constant" | "cosine";
  maxTokens: number;
  pollMs: number;
}

export interface SftMeasurement {
  /** Mean negative log-likelihood per token of the held-out wrapped replies (their text and closing <|im_end|>). */
  loss: number;
  /** Share of greedy replies of the form <answer>…</answer> that end the turn. */
  formatShare: number;
  /** The same share of replies sampled at temperature 1 (SAMPLED_PER_PROMPT per prompt, fixed seeds):
   *  a model can take the format greedily while the format's tokens stay unlikely (LoRA on
   *  tiny-chat-2: docs/decisions.md, "LoRA on tiny-chat-2"). Reported, not judged. */
  sampledFormatShare: number;
  /** Share of greedy replies whose content (unwrapped, if wrapped) the task's checker accepts. */
  correctShare: number;
  /** Per held-out prompt (1 or 0), in order: for the paired change. */
  correct: number[];
}

export interface SftResult {
  seed: number;
  mode: "full" | "lora";
  before: SftMeasurement;
  after: SftMeasurement;
  examples: number;
  gradientSteps: number;
  /** The highest `learning_rate` a gradient step reported (the schedule's peak). */
  peakLearningRate: number;
  uploadSeconds: number;
  trainSeconds: number;
  seconds: number;
  /** The job's guard rails (empty when it raised none). */
  warnings: string[];
}

export const wrap = (answer: string) => `<answer>${answer}</answer>`;
const WRAPPED = /^<answer>([\s\S]*)<\/answer>$/;

/** vLLM's extensions the `openai` SDK passes through untyped. */
type VllmParams = ChatCompletionCreateParamsNonStreaming & { add_generation_prompt?: boolean; prompt_logprobs?: number; return_token_ids?: boolean };
type PromptLogprobs = (Record<string, { logprob: number; decoded_token: string }> | null)[];

/** The held-out reply's loss as the SFT job computes it (cross-entropy on the assistant's tokens
 *  and its closing <|im_end|>), from the server: the whole conversation is sent as the prompt
 *  (no generation prompt) with prompt_logprobs, and the assistant's tokens are those after the
 *  prompt-only rendering's tokens (with the generation prompt), up to <|im_end|>. */
async function replyNll(anneal: Anneal, model: string, messages: ChatCompletionMessageParam[], reply: string): Promise<{ nll: number; tokens: number }> {
  const promptOnly: VllmParams = { model, messages, max_tokens: 1, temperature: 0, logprobs: false, return_token_ids: true };
  const whole: VllmParams = { ...promptOnly, messages: [...messages, { role: "assistant", content: reply }], add_generation_prompt: false, prompt_logprobs: 0 };
  const [prefix, full] = await Promise.all([anneal.openai.chat.completions.create(promptOnly), anneal.openai.chat.completions.create(whole)]);
  const prefixIds = (prefix as unknown as { prompt_token_ids: number[] }).prompt_token_ids;
  const { prompt_token_ids: ids, prompt_logprobs: entries } = full as unknown as { prompt_token_ids: number[]; prompt_logprobs: PromptLogprobs };
  if (prefixIds.some((id, i) => ids[i] !== id)) throw new Error("the prompt's tokens are not a prefix of the conversation's: cannot locate the reply");
  let nll = 0;
  let tokens = 0;
  for (let i = prefixIds.length; i < ids.length; i++) {
    const entry = entries[i]![String(ids[i])];
    nll -= entry.logprob;
    tokens++;
    if (entry.decoded_token === "<|im_end|>") return { nll, tokens };
  }
  throw new Error("no <|im_end|> after the reply");
}

const SAMPLED_PER_PROMPT = 4;

export async function measureSft(anneal: Anneal, model: string, tasks: Task[], s: SftSettings): Promise<SftMeasurement> {
  const losses = await mapLimit(tasks, 4, (task) => replyNll(anneal, model, task.messages, wrap(task.answer)));
  const reply = async (task: Task, temperature: number, seed?: number) => {
    const completion = await anneal.openai.chat.completions.create({ model, messages: task.messages, temperature, seed, max_tokens: s.maxTokens, logprobs: false });
    const choice = completion.choices[0];
    const text = choice.message.content ?? "";
    const inner = WRAPPED.exec(text.trim());
    const inFormat = choice.finish_reason === "stop" && inner !== null;
    return { inFormat, correct: task.reward({ ...choice, message: { ...choice.message, content: inner ? inner[1] : text } }) === 1 };
  };
  const replies = await mapLimit(tasks, 4, (task) => reply(task, 0));
  const sampled = await mapLimit(tasks.flatMap((task) => Array.from({ length: SAMPLED_PER_PROMPT }, () => task)), 4, (task, i) => reply(task, 1, i + 1));
  return {
    // Token-weighted, as the training loss of a batch is.
    loss: losses.reduce((a, l) => a + l.nll, 0) / losses.reduce((a, l) => a + l.tokens, 0),
    formatShare: mean(replies.map((r) => (r.inFormat ? 1 : 0))),
    sampledFormatShare: mean(sampled.map((r) => (r.inFormat ? 1 : 0))),
    correctShare: mean(replies.map((r) => (r.correct ? 1 : 0))),
    correct: replies.map((r) => (r.correct ? 1 : 0)),
  };
}

/** Per-step rates: linear warmup over the first 10% of the steps, then cosine down to a tenth. */
export function cosineRates(peak: number, steps: number): number[] {
  const warmup = Math.max(1, Math.round(steps / 10));
  return Array.from({ length: steps }, (_, k) => {
    if (k < warmup) return (peak * (k + 1)) / warmup;
    const progress = (k - warmup) / Math.max(1, steps - 1 - warmup);
    return peak * (0.1 + 0.9 * 0.5 * (1 + Math.cos(Math.PI * progress)));
  });
}

/** The base model's held-out measurement (the same prompts for every seed). */
export function heldoutTasks(s: SftSettings): Task[] {
  return corpusTasks({ families: s.families, split: "heldout", seed: 11, count: s.heldoutPrompts });
}

export async function runSft(anneal: Anneal, s: SftSettings, seed: number, before: SftMeasurement, runId: string, log: (line: string) => void): Promise<SftResult> {
  const started = performance.now();
  const mode = s.lora ? "lora" : "full";
  const model = await anneal.createModel({ project: "bench-learn", name: `sft-${runId}-s${seed}${s.lora ? "-lora" : ""}`, baseModel: s.baseModel, lora: s.lora });
  const t0 = performance.now();
  const lines = corpusTasks({ families: s.families, split: "train", seed: 2000 + seed - 1, count: s.examples })
    .map((task) => ({ messages: [...task.messages, { role: "assistant", content: wrap(task.answer) }] }));
  const fileId = await anneal.uploadJsonl("answer-tags.jsonl", lines);
  const t1 = performance.now();
  const batch = typeof s.config.batch_size === "number" ? s.config.batch_size : 2;
  const trained = lines.length - validationCount(s.config.validation_fraction ?? 0, lines.length);
  const steps = Math.ceil(trained / batch) * (s.config.epochs ?? 1);
  const config = s.schedule === "cosine" && typeof s.config.learning_rate === "number" ? { ...s.config, learning_rate: cosineRates(s.config.learning_rate, steps) } : s.config;
  const jobId = await anneal.submitSftJob(model.id, fileId, config);
  let gradientSteps = 0;
  let peakLearningRate = 0;
  const epochs: string[] = [];
  await anneal.waitForJob(jobId, {
    pollMs: s.pollMs,
    onEvent: (e) => {
      if (e.type !== "gradient_step") return;
      gradientSteps++;
      peakLearningRate = Math.max(peakLearningRate, Number(e.data.learning_rate));
      const val = (key: string) => (e.data[key] === undefined ? "" : ` ${key} ${Number(e.data[key]).toFixed(3)}`);
      if (e.data["val/loss"] !== undefined) epochs.push(`${e.data.epoch}:${val("val/loss")}${val("val/accuracy")}`);
    },
  });
  if (epochs.length) log(`sft seed ${seed} ${mode}: per epoch: ${epochs.join(" | ")}`);
  const job = await anneal.getJob(jobId);
  const step = await anneal.latestStep(model.id);
  const t2 = performance.now();
  log(`sft seed ${seed} ${mode}: ${lines.length} examples uploaded (${((t1 - t0) / 1000).toFixed(1)} s), job → step ${step}: ${gradientSteps} gradient steps in ${((t2 - t1) / 1000).toFixed(1)} s`);

  const after = await measureSft(anneal, inferenceName(model), heldoutTasks(s), s);
  log(`sft seed ${seed} ${mode}: after: held-out loss ${after.loss.toFixed(3)}, in format ${after.formatShare.toFixed(3)} (at temperature 1: ${after.sampledFormatShare.toFixed(3)}), correct ${after.correctShare.toFixed(3)}`);
  return {
    seed, mode, before, after, examples: lines.length, gradientSteps, peakLearningRate, uploadSeconds: (t1 - t0) / 1000, trainSeconds: (t2 - t1) / 1000,
    seconds: (performance.now() - started) / 1000, warnings: (job.warnings ?? []).map((w) => w.code),
  };
}

/** Issue #18: at least this share of held-out replies in the new format… */
export const FORMAT_REQUIRED = 0.9;
/** …while the share of correct answers drops by at most this much. */
export const MAX_CORRECT_DROP = 0.05;

export interface SftVerdict {
  change: Change;
  ok: boolean;
}

/** A seed passes when ≥ 90% of its held-out replies take the format and correct answers fell by at most 5 points. */
export function judgeSft(r: SftResult): SftVerdict {
  const change = pairedChange(r.before.correct, r.after.correct);
  return { change, ok: r.after.formatShare >= FORMAT_REQUIRED && change.mean >= -MAX_CORRECT_DROP };
}
