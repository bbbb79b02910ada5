// Rehearsal by self-distillation: a small SFT job mixes in examples of what its starting weights
// already answer — their own greedy replies to training prompts of the base's corpus (never the
// knowledge probe's held-out prompts), wrapped in the reply prefix and suffix every example of the
// job shares (`<answer>` … `</answer>`) — so the job teaches the format on top of the answers
// instead of over them (docs/decisions.md, "Small datasets").
import type { LlamaModel } from "@/lib/engine/model/llama-model";
import { withAnswer } from "@/lib/engine/corpus/example";
import { sampleExamples, type CorpusVersion } from "@/lib/engine/corpus/generate";
import type { TrainingVocabulary } from "@/lib/engine/tokenizer/training-vocabulary";
import { plainAnswer } from "./knowledge-probe";
import { greedyReplies, heldOutPrompt, replyText } from "./sft-evaluation";
import { sftExampleSchema, type SftExample } from "./tokenize-sft-example";

/** What every reply of a job's examples starts and ends with (either may be empty). */
export interface ReplyWrapper {
  prefix: string;
  suffix: string;
}

/** The longest prefix and suffix all replies share, not overlapping in the shortest reply. */
export function commonWrapper(replies: readonly string[]): ReplyWrapper {
  if (replies.length === 0) return { prefix: "", suffix: "" };
  const shortest = Math.min(...replies.map((r) => r.length));
  let p = 0;
  while (p < shortest && replies.every((r) => r[p] === replies[0][p])) p++;
  let s = 0;
  while (s < shortest - p && replies.every((r) => r[r.length - 1 - s] === replies[0][replies[0].length - 1 - s])) s++;
  return { prefix: replies[0].slice(0, p), suffix: replies[0].slice(replies[0].length - s) };
}

export interface RehearsalSource {
  corpus: CorpusVersion;
  /** Keep only replies the corpus's checker accepts (else every reply that ends its turn). */
  onlyRight: boolean;
}

/** Fixed, so the same job always rehearses the same prompts. */
const REHEARSAL_SEED = 31;
/** Prompts drawn at most, as a multiple of those wanted (replies dropped by the checker are replaced). */
const MAX_DRAWN = 3;

/** `count` rehearsal examples: training prompts of the corpus with the model's greedy replies,
 *  wrapped; fewer when too few replies end their turn (or are right). */
export function rehearsalExamples(
  model: LlamaModel, vocabulary: TrainingVocabulary, source: RehearsalSource, wrapper: ReplyWrapper, count: number,
): SftExample[] {
  if (count <= 0) return [];
  const drawn = sampleExamples({ version: source.corpus, split: "train", seed: REHEARSAL_SEED, count: count * MAX_DRAWN, context: false });
  const out: SftExample[] = [];
  // In chunks of `count`: usually one chunk is enough.
  for (let i = 0; i < drawn.length && out.length < count; i += count) {
    const chunk = drawn.slice(i, i + count);
    const prompts = chunk.map((e) => heldOutPrompt(vocabulary.format, sftExampleSchema.parse({ messages: withAnswer(e) })));
    greedyReplies(model, vocabulary, prompts).forEach((reply, j) => {
      const text = replyText(reply).trim();
      if (!reply.ended || !text || (source.onlyRight && !chunk[j].check(plainAnswer(text)))) return;
      if (out.length < count) out.push(sftExampleSchema.parse({ messages: [...chunk[j].messages, { role: "assistant", content: `${wrapper.prefix}${text}${wrapper.suffix}` }] }));
    });
  }
  return out;
}

/** The job's examples with the rehearsal examples spread evenly among them (the first epoch keeps
 *  the data's order, so appending would train all rehearsal last). */
export function interleave<T>(own: readonly T[], rehearsal: readonly T[]): T[] {
  const out: T[] = [];
  const total = own.length + rehearsal.length;
  let r = 0;
  for (let k = 0; k < total; k++) {
    // Rehearsal's share of the first k+1 places, rounded: k-th place is rehearsal when it grows.
    const due = Math.floor(((k + 1) * rehearsal.length) / total);
    if (due > r) out.push(rehearsal[r++]);
    else out.push(own[k - r]);
  }
  return out;
}
