// What the starting weights already knew, asked again after training: greedy replies to a probe
// set, checked before and after. The set is the base model's own where it declares one (Anneal's
// bases: held-out prompts of the curriculum they were pretrained on, each with its checker), else
// the job's validation prompts, right when the reply matches the example's reply. Replies are
// checked with markup tags removed (`<answer>7</answer>` → `7`): a job that teaches a wrapper is
// judged on the answers inside it, not on the wrapper.
import { withAnswer } from "@/lib/engine/corpus/example";
import { sampleExamples, type CorpusVersion } from "@/lib/engine/corpus/generate";
import type { ChatFormat } from "@/lib/engine/tokenizer/chat-template";
import type { SampledReply } from "./degeneration";
import { heldOutPrompt, replyText, type HeldOutPrompt } from "./sft-evaluation";
import { sftExampleSchema } from "./tokenize-sft-example";

/** A base model's own probe set, as its entry declares it: held-out prompts of a corpus version. */
export interface BaseProbe {
  /** The base's name, to say whose prompts were asked. */
  base: string;
  corpus: CorpusVersion;
}

export interface ProbePrompt extends HeldOutPrompt {
  /** Whether a reply's text (markup removed) is right. */
  check(text: string): boolean;
}

export interface Probe {
  /** What was asked, in words: "32 held-out prompts of anneal/tiny-chat-2's curriculum". */
  source: string;
  prompts: ProbePrompt[];
}

/** Prompts asked of a base's own set: 32 greedy replies before and after take ~1–2 s on a tiny base. */
export const BASE_PROBE_PROMPTS = 32;
/** Fixed, so every job on a base asks the same prompts. */
const PROBE_SEED = 29;

const TAG = /<\/?[A-Za-z][\w-]*>/g;
/** The reply's text without markup tags, trimmed, without one trailing period. */
export const plainAnswer = (text: string): string => text.replace(TAG, "").trim().replace(/\.$/, "");

export function baseProbe(format: ChatFormat, probe: BaseProbe): Probe {
  const examples = sampleExamples({ version: probe.corpus, split: "heldout", seed: PROBE_SEED, count: BASE_PROBE_PROMPTS, context: false });
  return {
    source: `${examples.length} held-out prompts of ${probe.base}'s ${probe.corpus === 2 ? "curriculum" : "task corpus"}`,
    prompts: examples.map((e) => ({ ...heldOutPrompt(format, sftExampleSchema.parse({ messages: withAnswer(e) })), check: (text) => e.check(text) })),
  };
}

/** The job's validation prompts: right when the reply is the example's own reply. */
export function validationProbe(prompts: readonly HeldOutPrompt[]): Probe {
  return {
    source: `${prompts.length} held-out validation prompt${prompts.length === 1 ? "" : "s"} (right: the reply is the example's own)`,
    prompts: prompts.map((p) => ({ ...p, check: (text) => text === plainAnswer(p.expected) })),
  };
}

/** For each prompt, whether its reply ended the turn and is right. */
export const probeAnswers = (probe: Probe, replies: readonly SampledReply[]): boolean[] =>
  replies.map((r, i) => r.ended && probe.prompts[i].check(plainAnswer(replyText(r))));
