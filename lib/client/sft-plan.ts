// What the SFT launch forms show before a job is sent: the defaults the console sends, how many
// gradient steps the job will take (computed as the server plans it: lib/training/sft/sft-config.ts),
// and which parts of one example it trains (the assistant turns, or the last one).
import { validationCount } from "@/lib/training/sft/validation-split";

/** What the console sends when its fields are left as they are (docs/decisions.md "SFT defaults chosen"). */
export const CONSOLE_SFT_DEFAULTS = { batch_size: 2, epochs: 3, validation_fraction: 0.1 } as const;

export interface StepPlan {
  train: number;
  validation: number;
  stepsPerEpoch: number;
  steps: number;
}

export function planSteps(o: { examples: number; batchSize: number; epochs: number; validationFraction: number }): StepPlan {
  const validation = validationCount(o.validationFraction, o.examples);
  const train = o.examples - validation;
  const stepsPerEpoch = Math.ceil(train / o.batchSize);
  return { train, validation, stepsPerEpoch, steps: stepsPerEpoch * o.epochs };
}

/** What the console assumes a token is when it estimates a dataset's tokens before the server has
 *  tokenized it: BPE tokenizers average about 4 characters of English text a token. */
export const CHARACTERS_PER_TOKEN = 4;

/** The tokens a job trains on, estimated from its examples' characters: the share that is trained on
 *  (validation held out), every epoch. */
export function planTokens(o: { characters: number; plan: StepPlan; examples: number; epochs: number }): number {
  if (o.examples === 0) return 0;
  return Math.ceil((o.characters * o.plan.train) / o.examples / CHARACTERS_PER_TOKEN) * o.epochs;
}

/** The characters of an example's messages (what its tokens are made of). */
export const exampleCharacters = (example: { messages?: unknown }): number =>
  trainingPreview(example, "all").reduce((sum, part) => sum + part.text.length, 0);

/** The characters of every example in a JSONL text (a malformed line counts for nothing: the server refuses it). */
export function jsonlCharacters(text: string): number {
  let sum = 0;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const value: unknown = JSON.parse(line);
      if (value && typeof value === "object") sum += exampleCharacters(value as { messages?: unknown });
    } catch {
      // counted by the server's refusal instead
    }
  }
  return sum;
}

/** Examples in a JSONL text: its non-blank lines (the server refuses a malformed one with its line number). */
export const countJsonlLines = (text: string): number => text.split("\n").filter((line) => line.trim()).length;

export interface PreviewPart {
  role: string;
  text: string;
  /** The job trains on this part (an assistant turn it learns, through its end of turn). */
  trained: boolean;
}

type PreviewMessage = { role?: unknown; content?: unknown; message?: { role?: unknown; content?: unknown } };

const textOf = (content: unknown): string =>
  typeof content === "string" ? content : Array.isArray(content) ? content.map((p) => (p && typeof p === "object" && "text" in p ? String(p.text) : "")).join("\n") : "";

/** One example's messages as the job sees them, each marked trained or context. */
export function trainingPreview(example: { messages?: unknown }, assistantTurns: "all" | "last"): PreviewPart[] {
  const messages = Array.isArray(example.messages) ? (example.messages as PreviewMessage[]) : [];
  const parts = messages.map((m) => {
    const message = m.message && !m.role ? { ...m.message, role: "assistant" } : m;
    return { role: String(message.role ?? "?"), text: textOf(message.content) };
  });
  return parts.map((p, i) => ({ ...p, trained: p.role === "assistant" && (assistantTurns === "all" || i === parts.length - 1) }));
}

/** The first line of a JSONL text as an example, or null when it is not one. */
export function firstJsonlExample(text: string): { messages?: unknown } | null {
  const line = text.split("\n").find((l) => l.trim());
  if (!line) return null;
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === "object" ? (value as { messages?: unknown }) : null;
  } catch {
    return null;
  }
}
