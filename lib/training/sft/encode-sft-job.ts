// An SFT job's examples as the rows it trains on, one function for Anneal's trainer (sft-job.ts)
// and a remote worker's inputs (lib/workers/job-inputs.ts): the validation split (a held-out share
// of the data, or validation examples of their own), the plan, each example tokenized as serving
// renders it, and the examples of every gradient step.
import { z } from "zod";
import type { ChatFormat } from "@/lib/engine/tokenizer/chat-template";
import type { EncodedChat } from "@/lib/engine/tokenizer/chatml";
import type { ModelTrainingDefaults } from "../model-defaults";
import { interleave } from "./rehearsal";
import { planSft, sftConfigSchema, type SftPlan } from "./sft-config";
import { sftBatches, type SftBatch } from "./sft-step";
import { sftExampleSchema, tokenizeSftExample, type SftExample } from "./tokenize-sft-example";
import { splitValidation } from "./validation-split";

/** The split's seed: the same data always holds out the same examples. */
const SPLIT_SEED = 1;

export interface EncodeSftJobOptions {
  /** How the model's conversations are rendered and tokenized (TrainingVocabulary.format). */
  format: ChatFormat;
  contextLength: number;
  data: unknown;
  /** Validation examples of their own (validation_data / validation_data_url), or null. */
  validationData: unknown;
  config: unknown;
  defaults: ModelTrainingDefaults;
  /** Rehearsal examples to mix into training, made from the examples trained on (rehearsal.ts). */
  rehearse?: ((train: readonly SftExample[]) => SftExample[]) | null;
}

export interface EncodedSftJob {
  plan: SftPlan;
  /** The examples trained on (rehearsal examples interleaved), each its rows. */
  train: EncodedChat[][];
  /** Rehearsal examples among `train`. */
  rehearsed: number;
  /** The validation examples, each its rows; empty without validation. */
  validation: EncodedChat[][];
  /** The examples sent that `train` and `validation` hold (before tokenizing): the prompts SftJob replies to. */
  trainExamples: SftExample[];
  validationExamples: SftExample[];
  /** Gradient step k+1 trains batches[k] (indices into `train`). */
  batches: SftBatch[];
}

export function encodeSftJob(o: EncodeSftJobOptions): EncodedSftJob {
  const examples = z.array(sftExampleSchema).parse(o.data);
  const ownValidation = o.validationData ? z.array(sftExampleSchema).parse(o.validationData) : [];
  const config = sftConfigSchema.parse(o.config ?? {});
  const indexed = examples.map((example, index) => ({ example, index }));
  const split = splitValidation(indexed, config.validation_fraction ?? 0, SPLIT_SEED);
  const trainExamples = split.train.map(({ example }) => example);
  const rehearsal = o.rehearse?.(trainExamples) ?? [];
  const plan = planSft(config, o.defaults, examples.length, rehearsal.length);
  const encode = (list: string) => ({ example, index }: { example: SftExample; index: number }) =>
    tokenizeSftExample(o.format, example, plan.assistantTurns, o.contextLength, index, list);
  const train = interleave(split.train.map(encode("training_data")), rehearsal.map((example, index) => encode("rehearsal")({ example, index })));
  const validation = ownValidation.length ? ownValidation.map((example, index) => ({ example, index })) : split.validation;
  return {
    plan,
    train,
    rehearsed: rehearsal.length,
    validation: validation.map(encode(ownValidation.length ? "validation_data" : "training_data")),
    trainExamples,
    validationExamples: validation.map(({ example }) => example),
    batches: sftBatches(train.length, plan),
  };
}
