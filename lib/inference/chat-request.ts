import { z } from "zod";

// POST /v1/chat/completions request: every field of spec §4.1 with its default and range, and
// vLLM's cross-field rules with vLLM's own messages (vLLM's protocol.py validators). Failures
// are 422 `detail` entries (docs/contract.md), located at the field the rule is about.

// Bounds on what a request may ask the engine thread to do per token (stop strings are matched,
// logit_bias applied and bad_words checked after every token) or to carry into the prompt (tools).
export const MAX_STOP_STRINGS = 16;
export const MAX_STOP_STRING_CHARACTERS = 256;
export const MAX_LOGIT_BIAS_ENTRIES = 300;
export const MAX_BAD_WORDS = 128;
export const MAX_BAD_WORD_CHARACTERS = 256;
export const MAX_TOOLS = 128;
// A request's own chat template is parsed on the engine thread too (up to ~0.5 ms per KiB, measured).
export const MAX_CHAT_TEMPLATE_CHARACTERS = 64 * 1024;
const chatTemplateTooLong = `a chat template may be at most ${MAX_CHAT_TEMPLATE_CHARACTERS} characters`;

const INT64_MIN = -9223372036854775808;
const INT64_MAX = 9223372036854775807;
// zod's .int() stops at 2^53; the spec's int64 ranges need the float bounds, checked for integrality.
const int64 = (min = INT64_MIN) =>
  z.number().min(min).max(INT64_MAX).refine(Number.isInteger, "Input should be a valid integer");
const jsonObject = z.record(z.string(), z.unknown());

/** Variables for the chat template (vLLM's chat_template_kwargs, e.g. Qwen3's enable_thinking);
 *  a `chat_template` among them is the template itself. Trajectories and SFT examples carry them too. */
export const chatTemplateKwargsSchema = jsonObject.refine(
  (kwargs) => typeof kwargs.chat_template !== "string" || kwargs.chat_template.length <= MAX_CHAT_TEMPLATE_CHARACTERS,
  { message: chatTemplateTooLong, path: ["chat_template"] },
);

const textPart = z.object({ type: z.literal("text"), text: z.string() });
const contentPart = z.looseObject({ type: z.string() });

/** One message of any kind (developer, system, user, assistant, tool, function, custom, generic). */
export const chatMessageSchema = z.looseObject({
  role: z.string().min(1),
  content: z.union([z.string(), z.array(z.union([textPart, contentPart]))]).optional(),
  name: z.string().optional(),
  tool_calls: z
    .array(z.looseObject({ id: z.string().optional(), type: z.literal("function").default("function"), function: z.looseObject({ name: z.string(), arguments: z.string().default("") }) }))
    .optional(),
  tool_call_id: z.string().optional(),
  reasoning: z.string().optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const toolSchema = z.object({
  type: z.literal("function"),
  function: z.object({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: jsonObject.optional(),
    strict: z.boolean().optional(),
  }),
});

const responseFormatSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text") }),
  z.object({ type: z.literal("json_object") }),
  z.object({
    type: z.literal("json_schema"),
    json_schema: z.object(
      {
        name: z.string().min(1),
        description: z.string().optional(),
        schema: jsonObject.optional(),
        strict: z.boolean().optional(),
      },
      { error: "When response_format type is 'json_schema', the 'json_schema' field must be provided." },
    ),
  }),
  z.looseObject({ type: z.literal("structural_tag") }),
]);

const STRUCTURED_KINDS = ["json", "regex", "choice", "grammar", "json_object", "structural_tag"] as const;

export const structuredOutputsSchema = z.object({
  json: z.union([z.string(), jsonObject]).optional(),
  regex: z.string().optional(),
  choice: z.array(z.string()).min(1).optional(),
  grammar: z.string().min(1).optional(),
  json_object: z.boolean().optional(),
  disable_fallback: z.boolean().default(false),
  disable_any_whitespace: z.boolean().default(false),
  disable_additional_properties: z.boolean().default(false),
  whitespace_pattern: z.string().optional(),
  structural_tag: z.string().optional(),
  _backend: z.string().optional(),
  _backend_was_auto: z.boolean().default(false),
});

const repetitionDetectionSchema = z.object({
  max_pattern_size: z.number().int().default(0),
  min_pattern_size: z.number().int().default(0),
  min_count: z.number().int().default(0),
});

const penalty = (name: string) =>
  z.number().min(-2, `${name} must be in [-2, 2]`).max(2, `${name} must be in [-2, 2]`).default(0);

const requestShape = z.object({
  messages: z.array(chatMessageSchema).min(1, "messages must contain at least one message"),
  model: z.string().min(1).optional(),
  frequency_penalty: penalty("frequency_penalty"),
  logit_bias: z
    .record(z.string().regex(/^-?\d+$/, "logit_bias keys must be token ids"), z.number())
    .refine((bias) => Object.keys(bias).length <= MAX_LOGIT_BIAS_ENTRIES, `logit_bias may hold at most ${MAX_LOGIT_BIAS_ENTRIES} tokens`)
    .optional(),
  logprobs: z.boolean().optional(),
  top_logprobs: z.number().int().min(-1, "`top_logprobs` must be a positive value or -1.").default(0),
  max_tokens: z.number().int().min(1, "max_tokens must be at least 1").optional(),
  max_completion_tokens: z.number().int().min(1, "max_completion_tokens must be at least 1").optional(),
  n: z.number().int().min(1, "n must be at least 1").max(128).default(1),
  presence_penalty: penalty("presence_penalty"),
  response_format: responseFormatSchema.optional(),
  seed: int64().optional(),
  stop: z
    .union([z.string(), z.array(z.string())])
    .transform((s) => (typeof s === "string" ? [s] : s))
    .pipe(
      z
        .array(z.string().min(1, "stop cannot contain an empty string.").max(MAX_STOP_STRING_CHARACTERS, `a stop string may be at most ${MAX_STOP_STRING_CHARACTERS} characters`))
        .max(MAX_STOP_STRINGS, `stop may hold at most ${MAX_STOP_STRINGS} strings`),
    )
    .default([]),
  stream: z.boolean().default(false),
  stream_options: z.object({ include_usage: z.boolean().default(false), continuous_usage_stats: z.boolean().default(false) }).optional(),
  temperature: z.number().min(0, "temperature must be in [0, 2]").max(2, "temperature must be in [0, 2]").optional(),
  top_p: z.number().gt(0, "top_p must be in (0, 1]").max(1, "top_p must be in (0, 1]").optional(),
  tools: z.array(toolSchema).max(MAX_TOOLS, `tools may hold at most ${MAX_TOOLS} tools`).optional(),
  tool_choice: z.literal("none", { error: 'tool_choice: only "none" is supported' }).default("none"),
  reasoning_effort: z.enum(["low", "medium", "high"]).optional(),
  include_reasoning: z.boolean().default(true),
  parallel_tool_calls: z.boolean().default(true),
  user: z.string().optional(),
  use_beam_search: z.boolean().default(false),
  top_k: z.number().int().min(-1, "top_k must be 0 (disable), or at least 1").optional(),
  min_p: z.number().min(0, "min_p must be in [0, 1]").max(1, "min_p must be in [0, 1]").optional(),
  repetition_penalty: z.number().gt(0, "repetition_penalty must be greater than zero").optional(),
  length_penalty: z.number().default(1),
  stop_token_ids: z.array(z.number().int().min(0)).default([]),
  include_stop_str_in_output: z.boolean().default(false),
  ignore_eos: z.boolean().default(false),
  min_tokens: z.number().int().min(0, "min_tokens must be greater than or equal to 0").default(0),
  skip_special_tokens: z.boolean().default(true),
  spaces_between_special_tokens: z.boolean().default(true),
  truncate_prompt_tokens: int64(-1).optional(),
  prompt_logprobs: z.number().int().min(-1, "`prompt_logprobs` must be a positive value or -1.").optional(),
  allowed_token_ids: z.array(z.number().int().min(0)).min(1, "allowed_token_ids must not be empty").optional(),
  bad_words: z
    .array(z.string().max(MAX_BAD_WORD_CHARACTERS, `a bad word may be at most ${MAX_BAD_WORD_CHARACTERS} characters`))
    .max(MAX_BAD_WORDS, `bad_words may hold at most ${MAX_BAD_WORDS} words`)
    .default([]),
  echo: z.boolean().default(false),
  add_generation_prompt: z.boolean().optional(),
  continue_final_message: z.boolean().default(false),
  add_special_tokens: z.boolean().default(false),
  documents: z.array(z.record(z.string(), z.string())).optional(),
  chat_template: z.string().max(MAX_CHAT_TEMPLATE_CHARACTERS, chatTemplateTooLong).optional(),
  chat_template_kwargs: chatTemplateKwargsSchema.default({}),
  mm_processor_kwargs: jsonObject.optional(),
  structured_outputs: structuredOutputsSchema.optional(),
  priority: int64().default(0),
  request_id: z.string().min(1).optional(),
  return_tokens_as_token_ids: z.boolean().optional(),
  return_token_ids: z.boolean().optional(),
  cache_salt: z.string().min(1, "Parameter 'cache_salt' must be a non-empty string if provided.").optional(),
  kv_transfer_params: jsonObject.optional(),
  engine_xargs: z
    .record(z.string(), z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))]))
    .optional(),
  repetition_detection: repetitionDetectionSchema.optional(),
});

type RequestShape = z.output<typeof requestShape>;

/** vLLM's cross-field rules (reference §1.2–1.3), each reported at the field it is about. */
function crossFieldRules(r: RequestShape, ctx: z.RefinementCtx): void {
  const fail = (path: string[], message: string) => ctx.addIssue({ code: "custom", path, message });
  if (r.stream_options && !r.stream) fail(["stream_options"], "Stream options can only be defined when `stream=True`.");
  if (r.stream && r.prompt_logprobs !== undefined && r.prompt_logprobs !== 0) {
    fail(["prompt_logprobs"], "`prompt_logprobs` are not available when `stream=True`.");
  }
  if (r.top_logprobs !== 0 && !r.logprobs) fail(["top_logprobs"], "when using `top_logprobs`, `logprobs` must be set to true.");
  if (r.continue_final_message && r.add_generation_prompt === true) {
    fail(["continue_final_message"], "Cannot set both `continue_final_message` and `add_generation_prompt` to True.");
  }
  if (r.tools && r.tools.length === 0) {
    fail(["tools"], "`tools` must not be an empty array. Either provide at least one tool or omit the field entirely.");
  }
  const maxTokens = r.max_completion_tokens ?? r.max_tokens;
  if (maxTokens !== undefined && r.min_tokens > maxTokens) {
    fail(["min_tokens"], `min_tokens must be less than or equal to max_tokens=${maxTokens}, got ${r.min_tokens}.`);
  }
  if (r.temperature !== undefined && r.temperature < 1e-5 && r.n > 1) {
    fail(["n"], `n must be 1 when using greedy sampling, got ${r.n}.`);
  }
  if (r.structured_outputs) {
    const kinds = STRUCTURED_KINDS.filter((k) => r.structured_outputs![k] !== undefined && r.structured_outputs![k] !== false);
    if (kinds.length === 0) fail(["structured_outputs"], "You must use one kind of structured outputs constraint but none are specified.");
    if (kinds.length > 1) fail(["structured_outputs"], `You can only use one kind of structured outputs constraint but multiple are specified: ${kinds.join(", ")}.`);
  }
  const formatConstrains = r.response_format && r.response_format.type !== "text";
  if (formatConstrains && r.structured_outputs) {
    fail(["response_format"], "You can only use one kind of structured outputs constraint: response_format and structured_outputs were both given.");
  }
  const rd = r.repetition_detection;
  if (rd) {
    if (rd.max_pattern_size < 0 || rd.min_pattern_size < 0 || rd.min_pattern_size > rd.max_pattern_size) {
      fail(["repetition_detection"], "max_pattern_size, min_pattern_size must be >=0, with min_pattern_size <= max_pattern_size. Set both to 0 to disable repetitive pattern detection.");
    } else if (rd.max_pattern_size > 0 && rd.min_count < 2) {
      fail(["repetition_detection", "min_count"], "min_count must be >= 2 to detect repetitive patterns in engine output. If you do not wish to detect repetitive patterns, set max_pattern_size to 0.");
    }
  }
}

export const chatCompletionRequestSchema = requestShape.superRefine(crossFieldRules).transform((r) => ({
  ...r,
  // With continue_final_message the prompt ends inside the last message: no generation prompt
  // unless asked (vLLM keeps its default true there, which is never what a prefill client wants).
  add_generation_prompt: r.add_generation_prompt ?? !r.continue_final_message,
  logit_bias: r.logit_bias && Object.fromEntries(Object.entries(r.logit_bias).map(([id, bias]) => [id, Math.max(-100, Math.min(100, bias))])),
}));

export type ChatCompletionRequest = z.output<typeof chatCompletionRequestSchema>;
