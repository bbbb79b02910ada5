// The RL-run form's values → the body of POST /v1/preview/rl-runs (less its prompts, which the
// form adds per source), with a message per field the browser can already tell is wrong. The
// server validates everything again (its 422s land on the same fields).
import { z } from "zod";
import { JsonlError, parseJsonl } from "@/lib/contract/jsonl";
import { MAX_RUN_PROMPTS } from "@/lib/training/rl-runs/limits";

export const CHECKER_CHOICES = [
  { type: "exact_match", label: "Exact match with the reference" },
  { type: "numeric_match", label: "Numeric match with the reference" },
  { type: "regex", label: "Regular expression" },
  { type: "json_schema", label: "Valid JSON for a schema" },
  { type: "length", label: "Length in a range" },
] as const;
export type CheckerType = (typeof CHECKER_CHOICES)[number]["type"];

export interface RlRunSettings {
  checker: Record<string, unknown>;
  group_size: number;
  iterations: number;
  prompts_per_iteration: number;
  temperature: number;
  max_tokens: number;
  seed?: number;
  experimental_config?: { learning_rate: number };
}

/** A prompt as the form sends it (the server checks the messages). */
export interface PromptInput {
  messages: unknown[];
  reference?: string;
}

/** Where the prompts come from: the body's `prompts`. A file is uploaded first and named by id. */
export type PromptsInput =
  | { source: "inline"; items: PromptInput[] }
  | { source: "file"; file_id: string }
  | { source: "calls"; call_ids: string[] }
  | { source: "queue"; queue_id: string };

type Get = (name: string) => string;

function integer(get: Get, name: string, min: number, max: number, errors: Record<string, string>): number {
  const value = Number(get(name));
  if (!Number.isInteger(value) || value < min || value > max) errors[name] = `A whole number from ${min} to ${max}.`;
  return value;
}

function checkerOf(type: CheckerType, get: Get, errors: Record<string, string>): Record<string, unknown> {
  switch (type) {
    case "exact_match":
      return { type, case_sensitive: get("checker.ignore_case") !== "on" };
    case "numeric_match": {
      const tolerance = Number(get("checker.tolerance") || "0");
      if (!(tolerance >= 0)) errors["checker.tolerance"] = "Zero or a positive number.";
      return { type, tolerance };
    }
    case "regex": {
      const pattern = get("checker.pattern");
      if (!pattern) errors["checker.pattern"] = "A regular expression, e.g. ^\\d+$";
      return { type, pattern, flags: get("checker.flags") };
    }
    case "json_schema": {
      try {
        return { type, schema: JSON.parse(get("checker.schema")) as unknown };
      } catch {
        errors["checker.schema"] = 'A JSON schema, e.g. {"type": "object"}.';
        return { type };
      }
    }
    case "length": {
      const min = integer(get, "checker.min", 0, 1_000_000, errors);
      const max = integer(get, "checker.max", 0, 1_000_000, errors);
      if (!errors["checker.max"] && !errors["checker.min"] && min > max) errors["checker.max"] = "At least the minimum.";
      return { type, min, max };
    }
  }
}

export function readRlRunSettings(data: FormData): { settings: RlRunSettings; errors: Record<string, string> } {
  const get: Get = (name) => String(data.get(name) ?? "").trim();
  const errors: Record<string, string> = {};
  const temperature = Number(get("temperature"));
  if (!(temperature >= 0 && temperature <= 2)) errors.temperature = "From 0 to 2.";
  const seed = get("seed");
  const lr = get("learning_rate");
  if (lr && !(Number(lr) > 0)) errors["experimental_config.learning_rate"] = "A positive number, e.g. 1e-4.";
  const settings: RlRunSettings = {
    checker: checkerOf(get("checker.type") as CheckerType, get, errors),
    group_size: integer(get, "group_size", 2, 32, errors),
    iterations: integer(get, "iterations", 1, 200, errors),
    prompts_per_iteration: integer(get, "prompts_per_iteration", 1, 128, errors),
    temperature,
    max_tokens: integer(get, "max_tokens", 1, 1024, errors),
    ...(seed ? { seed: integer(get, "seed", 0, 2_147_483_647, errors) } : {}),
    ...(lr ? { experimental_config: { learning_rate: Number(lr) } } : {}),
  };
  return { settings, errors };
}

/** What the browser checks of a pasted prompt (the server checks the messages themselves). */
const pastedPromptSchema = z.object({ messages: z.array(z.unknown()), reference: z.string().optional() });

/** Pasted JSONL prompts: one {messages, reference?} per line; the first bad line is reported. */
export function parsePastedPrompts(text: string): { items: PromptInput[]; error?: string } {
  try {
    return { items: parseJsonl(text, { schema: pastedPromptSchema, line: '{"messages": [...], "reference": "..."}', items: "prompts", max: MAX_RUN_PROMPTS }) };
  } catch (error) {
    if (!(error instanceof JsonlError)) throw error;
    return { items: [], error: error.line === null ? 'Paste one {"messages": [...], "reference": "..."} object per line.' : `Line ${error.line}: ${error.message}.` };
  }
}
