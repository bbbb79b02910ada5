// bench:learn, SFT part: teach tiny-chat a reply format it never produces — every answer wrapped
// as <answer>…</answer> — from a JSONL file uploaded with POST /v1/files, through one SFT job.
// Measured on held-out prompts before and after: the loss of the held-out reference replies
// (prompt_logprobs, see heldoutLoss) and the share of greedy replies in the format.
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { Anneal, SftConfig } from "../../examples/lib/anneal";
import { inferenceName } from "../../examples/lib/anneal";
import { mapLimit, mean } from "../../examples/lib/rollout";
import { corpusTasks, type Task } from "../../examples/lib/tasks";
import type { TaskFamily } from "../../lib/engine/corpus/example";

export interface SftSettings {
  families: TaskFamily[];
  examples: number;
  heldoutPrompts: number;
  config: SftConfig;
  maxTokens: number;
  pollMs: number;
}

export interface SftMeasurement {
  /** Mean negative log-likelihood per token of the held-out wrapped replies (their text and closing <|im_end|>). */
  loss: number;
  /** Share of greedy replies of the form <answer>…</answer> that end the turn. */
  formatShare: number;
  /** Share of greedy replies whose content (unwrapped, if wrapped) the task's checker accepts. */
  correctShare: number;
}

export interface SftResult {
  before: SftMeasurement;
  after: SftMeasurement;
  examples: number;
  gradientSteps: number;
  uploadSeconds: number;
  trainSeconds: number;
  seconds: number;
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

export async function measureSft(anneal: Anneal, model: string, tasks: Task[], s: SftSettings): Promise<SftMeasurement> {
  const losses = await mapLimit(tasks, 4, (task) => replyNll(anneal, model, task.messages, wrap(task.answer)));
  const replies = await mapLimit(tasks, 4, async (task) => {
    const completion = await anneal.openai.chat.completions.create({ model, messages: task.messages, temperature: 0, max_tokens: s.maxTokens, logprobs: false });
    const choice = completion.choices[0];
    const text = choice.message.content ?? "";
    const inner = WRAPPED.exec(text.trim());
    const inFormat = choice.finish_reason === "stop" && inner !== null;
    return { inFormat, correct: task.reward({ ...choice, message: { ...choice.message, content: inner ? inner[1] : text } }) === 1 };
  });
  return {
    // Token-weighted, as the training loss of a batch is.
    loss: losses.reduce((a, l) => a + l.nll, 0) / losses.reduce((a, l) => a + l.tokens, 0),
    formatShare: mean(replies.map((r) => (r.inFormat ? 1 : 0))),
    correctShare: mean(replies.map((r) => (r.correct ? 1 : 0))),
  };
}

export async function runSft(anneal: Anneal, s: SftSettings, runId: string, log: (line: string) => void): Promise<SftResult> {
  const started = performance.now();
  const model = await anneal.createModel({ project: "bench-learn", name: `sft-${runId}`, baseModel: "anneal/tiny-chat" });
  const heldout = corpusTasks({ families: s.families, split: "heldout", seed: 11, count: s.heldoutPrompts });
  const before = await measureSft(anneal, inferenceName(model), heldout, s);
  log(`sft: before: held-out loss ${before.loss.toFixed(3)}, in format ${before.formatShare.toFixed(3)}, correct ${before.correctShare.toFixed(3)}`);

  const t0 = performance.now();
  const lines = corpusTasks({ families: s.families, split: "train", seed: 2000, count: s.examples })
    .map((task) => ({ messages: [...task.messages, { role: "assistant", content: wrap(task.answer) }] }));
  const fileId = await anneal.uploadJsonl("answer-tags.jsonl", lines);
  const t1 = performance.now();
  const jobId = await anneal.submitSftJob(model.id, fileId, s.config);
  let gradientSteps = 0;
  await anneal.waitForJob(jobId, { pollMs: s.pollMs, onEvent: (e) => void (e.type === "gradient_step" && gradientSteps++) });
  const step = await anneal.latestStep(model.id);
  const t2 = performance.now();
  log(`sft: ${lines.length} examples uploaded (${((t1 - t0) / 1000).toFixed(1)} s), job → step ${step}: ${gradientSteps} gradient steps in ${((t2 - t1) / 1000).toFixed(1)} s`);

  const after = await measureSft(anneal, inferenceName(model), heldout, s);
  log(`sft: after: held-out loss ${after.loss.toFixed(3)}, in format ${after.formatShare.toFixed(3)}, correct ${after.correctShare.toFixed(3)}`);
  return { before, after, examples: lines.length, gradientSteps, uploadSeconds: (t1 - t0) / 1000, trainSeconds: (t2 - t1) / 1000, seconds: (performance.now() - started) / 1000 };
}
