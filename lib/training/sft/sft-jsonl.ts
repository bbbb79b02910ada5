// SFT training data as a JSONL file (docs/contract.md): one `{messages, tools?}` object per line, the
// last message from the assistant. Blank lines are skipped; a bad line is named by its number.
import { badRequest } from "@/lib/contract/errors";
import { sftExampleSchema, type SftExample } from "./tokenize-sft-example";

export const MAX_SFT_EXAMPLES = 100_000;

export function parseSftJsonl(text: string, source: string): SftExample[] {
  const examples: SftExample[] = [];
  const lines = text.split("\n");
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (!line) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw badRequest(`${source}, line ${i + 1}: not valid JSON (each line must be one {"messages": [...]} object).`);
    }
    const parsed = sftExampleSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw badRequest(`${source}, line ${i + 1}: ${issue.path.length ? `${issue.path.join(".")}: ` : ""}${issue.message}`);
    }
    examples.push(parsed.data);
    if (examples.length > MAX_SFT_EXAMPLES) throw badRequest(`${source}: more than ${MAX_SFT_EXAMPLES} examples; split it into several jobs.`);
  }
  if (!examples.length) throw badRequest(`${source}: no examples (expected one {"messages": [...]} object per line).`);
  return examples;
}
