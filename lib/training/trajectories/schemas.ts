// The trajectory wire shapes of POST /v1/preview/training-jobs (as ART sends them): unknown fields
// are ignored (clients send metrics, logs, exceptions...), and null means "absent" everywhere.
import { z } from "zod";
import { chatTemplateKwargsSchema, toolSchema } from "@/lib/inference/chat-request";

const textPart = z.looseObject({ type: z.string(), text: z.string().nullish() });

const toolCallSchema = z.looseObject({
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z.looseObject({ name: z.string(), arguments: z.string().nullish() }),
});

/** Any chat message: the context around the trained Choices. */
export const trajectoryMessageSchema = z.looseObject({
  role: z.string().min(1),
  content: z.union([z.string(), z.array(textPart)]).nullish(),
  tool_calls: z.array(toolCallSchema).nullish(),
  tool_call_id: z.string().nullish(),
});
export type TrajectoryMessage = z.infer<typeof trajectoryMessageSchema>;

const tokenLogprobSchema = z.looseObject({
  /** "token_id:<id>" (vLLM's return_tokens_as_token_ids) or the token's text. */
  token: z.string(),
  bytes: z.array(z.int().min(0).max(255)).nullish(),
  /** The sampler's log π_old; null (or absent) means unknown, i.e. on-policy. */
  logprob: z.number().nullish(),
});
export type TokenLogprob = z.infer<typeof tokenLogprobSchema>;

/** An OpenAI chat-completion Choice: the only trainable unit. Told apart from a message by having
 *  `message` instead of `role`. */
export const choiceSchema = z.looseObject({
  message: z.looseObject({
    role: z.string().nullish(),
    content: z.string().nullish(),
    refusal: z.string().nullish(),
    tool_calls: z.array(toolCallSchema).nullish(),
  }),
  finish_reason: z.string().nullish(),
  index: z.number().nullish(),
  logprobs: z
    .looseObject({ content: z.array(tokenLogprobSchema).nullish(), refusal: z.array(tokenLogprobSchema).nullish() })
    .nullish(),
});
export type Choice = z.infer<typeof choiceSchema>;

export const messageOrChoiceSchema = z.union([trajectoryMessageSchema, choiceSchema]);
export type MessageOrChoice = z.infer<typeof messageOrChoiceSchema>;

export const isChoice = (item: MessageOrChoice): item is Choice => "message" in item && !("role" in item);

/** Upstream ART also accepts a bare function definition as a tool and wraps it itself. */
export const trajectoryToolSchema = z.preprocess(
  (tool) => (tool && typeof tool === "object" && !("type" in tool) ? { type: "function", function: tool } : tool),
  toolSchema,
);
export type TrajectoryTool = z.infer<typeof trajectoryToolSchema>;

/** Anneal's extension (ART sends none): the chat_template_kwargs the history's completions were
 *  served with (e.g. {"enable_thinking": false}), so training renders the prompts they saw. */
export const trainingTemplateKwargsSchema = chatTemplateKwargsSchema
  .nullish()
  .describe("Anneal's extension: the chat_template_kwargs the completions were served with (e.g. Qwen3's {\"enable_thinking\": false}); training renders each prompt with them, as serving did. A `chat_template` among them is the template.");

export const historySchema = z.looseObject({
  messages_and_choices: z.array(messageOrChoiceSchema),
  tools: z.array(trajectoryToolSchema).nullish(),
  chat_template_kwargs: trainingTemplateKwargsSchema,
});
export type History = z.infer<typeof historySchema>;

export const trajectorySchema = z.looseObject({
  ...historySchema.shape,
  // Required (ART always sends it). A NaN literal arrives as a missing value (docs/contract.md), so a
  // NaN reward is refused here by location rather than silently trained on as 0.
  reward: z
    .number({ error: (issue) => (issue.input === undefined ? "Field required (NaN, Infinity and null are not rewards)" : "reward must be a finite number") })
    .refine(Number.isFinite, "reward must be a finite number"),
  additional_histories: z.array(historySchema).nullish().transform((h) => h ?? []),
});
export type Trajectory = z.infer<typeof trajectorySchema>;

export const trajectoryGroupSchema = z.looseObject({ trajectories: z.array(trajectorySchema) });
export type TrajectoryGroup = z.infer<typeof trajectoryGroupSchema>;
