import type { LlamaGrammar, LlamaModel } from "node-llama-cpp";
import { generate, type GenerateRequest } from "@/lib/engine/serving/generate";
import type { AdapterRef, ModelRegistry } from "@/lib/engine/serving/model-registry";
import { textTokenizer } from "@/lib/engine/serving/text-tokenizer";
import type { ChatCompletionRequest } from "@/lib/inference/chat-request";
import { LogprobFormatter } from "./logprob-entry";
import type { ChoiceEvent } from "./messages";
import { endsInRepetition } from "./repetition";
import { StopStringMatcher } from "./stop-strings";

// The n choices of one request, generated concurrently (each on its own sequence of the model's
// context, which llama.cpp batches) and merged into one stream of events, in the order produced.
// Runs on the engine thread; both the JSON response and the SSE stream are built from these events.

export interface ChoicePlan {
  registry: ModelRegistry;
  model: LlamaModel;
  gguf: string;
  adapter?: AdapterRef;
  request: ChatCompletionRequest;
  promptTokens: number[];
  maxTokens: number;
  grammar?: LlamaGrammar;
  /** null: no logprobs; else how many alternatives per token. */
  logprobs: { top: number; asTokenIds: boolean } | null;
  signal?: AbortSignal;
}

function generateRequest(plan: ChoicePlan, index: number): GenerateRequest {
  const r = plan.request;
  const tokenize = textTokenizer(plan.model);
  return {
    model: plan.gguf,
    adapter: plan.adapter,
    promptTokens: plan.promptTokens,
    maxTokens: plan.maxTokens,
    sampling: {
      temperature: r.temperature,
      topP: r.top_p,
      topK: r.top_k !== undefined && r.top_k > 0 ? r.top_k : undefined,
      minP: r.min_p,
      repetitionPenalty: r.repetition_penalty,
      frequencyPenalty: r.frequency_penalty,
      presencePenalty: r.presence_penalty,
      logitBias: r.logit_bias && Object.fromEntries(Object.entries(r.logit_bias).map(([id, bias]) => [Number(id), bias])),
      allowedTokenIds: r.allowed_token_ids,
      // One seed per request; choice i draws from seed + i, so choices differ but replay exactly.
      seed: r.seed === undefined ? undefined : (r.seed + index) >>> 0,
    },
    grammar: plan.grammar,
    stopTokens: r.stop_token_ids,
    ignoreEos: r.ignore_eos,
    minTokens: r.min_tokens,
    topLogprobs: plan.logprobs?.top,
    bannedSequences: r.bad_words.flatMap((word) => [tokenize(word, false), tokenize(` ${word}`, false)]),
    renderSpecialTokens: !r.skip_special_tokens,
    signal: plan.signal,
  };
}

async function* runChoice(plan: ChoicePlan, index: number): AsyncGenerator<ChoiceEvent> {
  const r = plan.request;
  const stops = new StopStringMatcher(r.stop, r.include_stop_str_in_output);
  const formatter = plan.logprobs && new LogprobFormatter(plan.model, plan.logprobs.asTokenIds);
  const produced: number[] = [];
  const stream = generate(plan.registry, generateRequest(plan, index));
  try {
    for (let step = await stream.next(); ; step = await stream.next()) {
      if (step.done) {
        const rest = stops.flush();
        const { stopToken, stopLogprob, stopTop } = step.value;
        // As vLLM does, the stop token (end of turn, or a stop_token_ids hit) is in token_ids and
        // logprobs though not in the text: RL learns when to stop from it.
        const stopEntry = stopToken !== undefined && formatter ? [formatter.entry(stopToken, stopLogprob!, stopTop)] : [];
        if (rest || stopToken !== undefined) {
          yield { kind: "delta", index, text: rest, tokenIds: stopToken === undefined ? [] : [stopToken], logprobs: stopEntry };
        }
        yield { kind: "finish", index, finishReason: step.value.reason, stopReason: stopToken !== undefined && r.stop_token_ids.includes(stopToken) ? stopToken : null };
        return;
      }
      const t = step.value;
      produced.push(t.token);
      const check = stops.push(t.text);
      const logprobs = formatter ? [formatter.entry(t.token, t.logprob, t.top)] : [];
      yield { kind: "delta", index, text: check.emit, tokenIds: [t.token], logprobs };
      if (check.stopped) {
        yield { kind: "finish", index, finishReason: "stop", stopReason: null };
        return;
      }
      if (r.repetition_detection && endsInRepetition(produced, r.repetition_detection)) {
        yield { kind: "finish", index, finishReason: "repetition", stopReason: null };
        return;
      }
    }
  } finally {
    await stream.return(undefined as never); // releases the sequence when we stop early
  }
}

/** Merges the n choices' events as they are produced. */
export async function* runChoices(plan: ChoicePlan): AsyncGenerator<ChoiceEvent> {
  if (plan.request.n === 1) {
    // One choice needs no merging: no race and no extra promise per token.
    const stream = runChoice(plan, 0);
    try {
      for (let step = await stream.next(); !step.done; step = await stream.next()) yield step.value;
    } finally {
      await stream.return(undefined);
    }
    return;
  }
  const streams = Array.from({ length: plan.request.n }, (_, i) => runChoice(plan, i));
  const pending = new Map<number, Promise<{ i: number; step: IteratorResult<ChoiceEvent> }>>();
  const pull = (i: number) => pending.set(i, streams[i].next().then((step) => ({ i, step })));
  streams.forEach((_, i) => pull(i));
  try {
    while (pending.size > 0) {
      const { i, step } = await Promise.race(pending.values());
      if (step.done) {
        pending.delete(i);
        continue;
      }
      pull(i);
      yield step.value;
    }
  } finally {
    await Promise.allSettled(streams.map((s) => s.return(undefined)));
  }
}
