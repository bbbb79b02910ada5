import { z } from "zod";

// GET /v1/preview/models/{model_id}/feedback-by-checkpoint: what people said about the calls each
// checkpoint of a trained model served, one row per step, to compare checkpoints side by side.

const annotationMean = z.object({
  spec: z.string().describe("The annotation spec's name (feedback type `wandb.annotation.<spec>`)."),
  mean: z.number().describe("Mean of the numeric values given on this step's calls."),
  count: z.number().int().describe("How many numeric values the mean is of."),
});

export const checkpointFeedbackRow = z.object({
  step: z.number().int().describe("The checkpoint's step; 0 is the base model, served before any checkpoint existed."),
  served_as: z.string().describe("The inference name the calls were served under: `<entity>/<project>/<name>:step<N>`."),
  checkpoint_exists: z.boolean().describe("Whether the checkpoint is still there (false for step 0 and for deleted checkpoints whose calls remain)."),
  calls: z.number().int().describe("Recorded calls this step served, in the model's team."),
  judged_calls: z.number().int().describe("Of those, the calls with any feedback."),
  feedback: z.number().int().describe("Feedback rows on those calls (reactions, notes, annotations, any other kind)."),
  thumbs_up: z.number().int().describe("👍 reactions (any skin tone)."),
  thumbs_down: z.number().int().describe("👎 reactions (any skin tone)."),
  thumbs_up_ratio: z.number().nullable().describe("thumbs_up / (thumbs_up + thumbs_down); null without thumbs."),
  annotations: z.array(annotationMean).describe("Per annotation spec with numeric values on this step's calls, by spec name."),
});
export type CheckpointFeedbackRow = z.infer<typeof checkpointFeedbackRow>;

export const checkpointFeedbackSchema = z.object({
  model_id: z.string(),
  data: z.array(checkpointFeedbackRow).describe("Every surviving checkpoint, and every step that served calls, by step."),
});
export type CheckpointFeedback = z.infer<typeof checkpointFeedbackSchema>;
