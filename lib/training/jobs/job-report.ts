// What a finished job reports beside its checkpoint: warnings (guard rails: the checkpoint looks
// worse than the weights it started from; the job still succeeded) and a few greedy replies to
// held-out prompts before and after training, to look at before serving it.
import { z } from "zod";

export const jobWarningSchema = z.object({
  code: z.string().describe("validation_loss_worse, training_loss_rose, validation_accuracy_dropped, correct_answers_dropped, repetition, invalid_text, never_ends_turn or same_reply; for a job a remote worker trained, guard_rails_not_run or guard_rails_cut_short when the checks could not run or finish"),
  message: z.string(),
});

export const replySampleSchema = z.object({
  /** The prompt's last user message. */
  prompt: z.string(),
  /** The example's own reply (what the job trained toward). */
  expected: z.string(),
  before: z.string(),
  after: z.string(),
  before_ended: z.boolean().describe("The reply ended its turn (false: cut at the reply limit)."),
  after_ended: z.boolean(),
  held_out: z.boolean().describe("From validation examples (true) or, for a job without any, from its training examples."),
});
export type ReplySample = z.infer<typeof replySampleSchema>;

export interface JobReport {
  warnings: z.infer<typeof jobWarningSchema>[];
  samples: ReplySample[];
}
