import type { ChatCompletionBody, Model } from "@/components/inference/queries";

// One column's model and sampling parameters as the form holds them (numbers as typed text, so a
// half-typed value is not lost), their validation with the API's own ranges and messages, and the
// exact request body a run sends.

export interface RunSettings {
  /** A model id, or `team/project/name:stepN` for one checkpoint; "" = the server's default. */
  model: string;
  temperature: string;
  top_p: string;
  top_k: string;
  max_tokens: string;
  seed: string;
  stop: string[];
  jsonSchema: { enabled: boolean; name: string; text: string };
  logprobs: boolean;
  top_logprobs: string;
}

const SETTINGS_FIELDS = ["model", "temperature", "top_p", "top_k", "max_tokens", "seed", "stop", "json_schema", "top_logprobs"] as const;
export type SettingsField = (typeof SETTINGS_FIELDS)[number];
export type SettingsErrors = Partial<Record<SettingsField, string>>;

export const DEFAULT_SETTINGS: RunSettings = {
  model: "",
  temperature: "0.7",
  top_p: "1",
  top_k: "",
  max_tokens: "48",
  seed: "",
  stop: [],
  jsonSchema: {
    enabled: false,
    name: "answer",
    text: '{\n  "type": "object",\n  "properties": {\n    "answer": { "type": "string" }\n  },\n  "required": ["answer"]\n}',
  },
  logprobs: true,
  top_logprobs: "5",
};

export interface Turn {
  role: "user" | "assistant";
  content: string;
}

const num = (text: string) => (text.trim() === "" ? undefined : Number(text));

/** Field messages for what the API would refuse (same ranges as lib/inference/chat-request.ts). */
export function validateSettings(s: RunSettings): SettingsErrors {
  const errors: SettingsErrors = {};
  const t = num(s.temperature);
  if (t !== undefined && !(t >= 0 && t <= 2)) errors.temperature = "Between 0 and 2";
  const p = num(s.top_p);
  if (p !== undefined && !(p > 0 && p <= 1)) errors.top_p = "Greater than 0, at most 1";
  const k = num(s.top_k);
  if (k !== undefined && !(Number.isInteger(k) && (k === -1 || k >= 0))) errors.top_k = "A whole number; 0 or empty = off";
  const max = num(s.max_tokens);
  if (max !== undefined && !(Number.isInteger(max) && max >= 1)) errors.max_tokens = "A whole number, at least 1";
  const seed = num(s.seed);
  if (seed !== undefined && !Number.isSafeInteger(seed)) errors.seed = "A whole number";
  if (s.logprobs) {
    const top = num(s.top_logprobs);
    if (top !== undefined && !(Number.isInteger(top) && top >= 0 && top <= 20)) errors.top_logprobs = "0 to 20";
  }
  if (s.jsonSchema.enabled) {
    if (!s.jsonSchema.name.trim()) errors.json_schema = "Give the schema a name";
    else {
      try {
        const schema: unknown = JSON.parse(s.jsonSchema.text);
        if (typeof schema !== "object" || schema === null || Array.isArray(schema)) errors.json_schema = "The schema must be a JSON object";
      } catch (error) {
        errors.json_schema = `Not valid JSON: ${(error as Error).message}`;
      }
    }
  }
  return errors;
}

/** The API's 422 messages by request field, on the form's fields (the schema's is response_format). */
export function settingsErrorsFromApi(fieldErrors: Record<string, string> = {}): SettingsErrors {
  const errors: SettingsErrors = {};
  for (const [field, message] of Object.entries(fieldErrors)) {
    const key = field === "response_format" ? "json_schema" : field;
    if ((SETTINGS_FIELDS as readonly string[]).includes(key)) errors[key as SettingsField] = message;
  }
  return errors;
}

/** The model a run uses: the chosen one, else the server's default (named, so snippets are exact). */
export function effectiveModel(s: RunSettings, models: Model[] | undefined): string | undefined {
  if (s.model) return s.model;
  return models?.find((m) => m.default)?.id ?? models?.[0]?.id;
}

/** The exact body a run sends (valid settings only: check validateSettings first). */
export function buildChatRequest(system: string, turns: Turn[], s: RunSettings, model: string | undefined): ChatCompletionBody {
  const messages = [...(system.trim() ? [{ role: "system", content: system }] : []), ...turns.map((t) => ({ role: t.role, content: t.content }))];
  const body: ChatCompletionBody = { model, messages };
  const temperature = num(s.temperature);
  const topP = num(s.top_p);
  const topK = num(s.top_k);
  const maxTokens = num(s.max_tokens);
  const seed = num(s.seed);
  if (temperature !== undefined) body.temperature = temperature;
  if (topP !== undefined && topP !== 1) body.top_p = topP;
  if (topK !== undefined && topK > 0) body.top_k = topK;
  if (maxTokens !== undefined) body.max_tokens = maxTokens;
  if (seed !== undefined) body.seed = seed;
  if (s.stop.length > 0) body.stop = s.stop;
  if (s.jsonSchema.enabled) {
    body.response_format = { type: "json_schema", json_schema: { name: s.jsonSchema.name.trim(), schema: JSON.parse(s.jsonSchema.text) as Record<string, unknown> } };
  }
  if (s.logprobs) {
    body.logprobs = true;
    const top = num(s.top_logprobs) ?? 0;
    if (top > 0) body.top_logprobs = top;
    // Trainable models answer token ids by default (RL wants them); the view wants text.
    body.return_tokens_as_token_ids = false;
  }
  body.stream = true;
  body.stream_options = { include_usage: true };
  return body;
}

/** A short label of what differs from the defaults, for column headers. */
export function settingsSummary(s: RunSettings): string[] {
  const parts = [`T ${s.temperature || "1"}`];
  if (s.top_p && s.top_p !== "1") parts.push(`top_p ${s.top_p}`);
  if (s.top_k && s.top_k !== "0") parts.push(`top_k ${s.top_k}`);
  parts.push(`max ${s.max_tokens || "∞"}`);
  if (s.seed) parts.push(`seed ${s.seed}`);
  if (s.stop.length) parts.push(`${s.stop.length} stop`);
  if (s.jsonSchema.enabled) parts.push("JSON");
  return parts;
}
