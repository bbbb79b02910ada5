// JSON Lines as Anneal reads them (SFT data, RL-run prompt files, prompts pasted in the console):
// one JSON object per line, blank lines skipped, each line checked against a schema. The first bad
// line stops the read with its 1-based number, so a user can find it; each caller words the error
// for its own place (a 400, a 422 at a field, a message under a form field).
import type { ZodType } from "zod";

export interface JsonlFormat<T> {
  schema: ZodType<T>;
  /** What one line holds, as users write it, e.g. `{"messages": [...]}`. */
  line: string;
  /** What the lines are called, e.g. "prompts". */
  items: string;
  max: number;
  /** Said after "more than `max` `items`", e.g. "split it into several jobs". */
  overMax?: string;
}

export class JsonlError extends Error {
  /** `line`: the 1-based line at fault; null when the text as a whole is (no items). */
  constructor(readonly line: number | null, message: string) {
    super(message);
  }
}

export function parseJsonl<T>(text: string, format: JsonlFormat<T>): T[] {
  const items: T[] = [];
  for (const [i, raw] of text.split("\n").entries()) {
    const line = raw.trim();
    if (!line) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new JsonlError(i + 1, `not valid JSON (each line must be one ${format.line} object)`);
    }
    const parsed = format.schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new JsonlError(i + 1, `${issue.path.length ? `${issue.path.join(".")}: ` : ""}${issue.message}`);
    }
    items.push(parsed.data);
    if (items.length > format.max) throw new JsonlError(i + 1, `more than ${format.max} ${format.items}${format.overMax ? `; ${format.overMax}` : ""}`);
  }
  if (!items.length) throw new JsonlError(null, `no ${format.items} (expected one ${format.line} object per line)`);
  return items;
}

/** `where` and the line, as the error's prefix: "file a.jsonl, line 3". */
export function jsonlErrorAt(where: string, error: JsonlError): string {
  return `${where}${error.line === null ? "" : `, line ${error.line}`}: ${error.message}`;
}
