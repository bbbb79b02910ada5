// SFT training data as a JSONL file (docs/contract.md): one `{messages, tools?}` object per line, the
// last message from the assistant. Blank lines are skipped; a bad line is named by its number.
import { badRequest } from "@/lib/contract/errors";
import { JsonlError, jsonlErrorAt, parseJsonl } from "@/lib/contract/jsonl";
import { sftExampleSchema, type SftExample } from "./tokenize-sft-example";

export const MAX_SFT_EXAMPLES = 100_000;

export function parseSftJsonl(text: string, source: string): SftExample[] {
  try {
    return parseJsonl(text, { schema: sftExampleSchema, line: '{"messages": [...]}', items: "examples", max: MAX_SFT_EXAMPLES, overMax: "split it into several jobs" });
  } catch (error) {
    if (!(error instanceof JsonlError)) throw error;
    throw badRequest(`${jsonlErrorAt(source, error)}.`);
  }
}
