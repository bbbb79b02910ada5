import type { GrammarSpec } from "@/lib/engine/serving/grammar-constraint";
import { badRequest } from "@/lib/http/errors";
import type { ChatCompletionRequest } from "@/lib/inference/chat-request";
import { regexToGbnf } from "@/lib/inference/regex-to-gbnf";

// response_format and structured_outputs → one grammar for the sampler's mask (vLLM merges
// response_format into structured_outputs the same way).

const gbnfString = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t")}"`;

export function grammarFor(request: ChatCompletionRequest): GrammarSpec | undefined {
  const format = request.response_format;
  if (format?.type === "json_schema") return { jsonSchema: format.json_schema.schema ?? { type: "object" } };
  if (format?.type === "json_object") return { jsonSchema: { type: "object" } };
  if (format?.type === "structural_tag") throw badRequest("response_format type 'structural_tag' is not supported by the embedded engine.");
  const so = request.structured_outputs;
  if (!so) return undefined;
  if (so.json !== undefined) {
    if (typeof so.json !== "string") return { jsonSchema: so.json };
    try {
      return { jsonSchema: JSON.parse(so.json) as object };
    } catch {
      throw badRequest("structured_outputs.json is not valid JSON.");
    }
  }
  if (so.json_object) return { jsonSchema: { type: "object" } };
  if (so.choice) return { gbnf: `root ::= ${so.choice.map(gbnfString).join(" | ")}` };
  if (so.grammar !== undefined) return { gbnf: so.grammar };
  if (so.regex !== undefined) return { gbnf: regexToGbnf(so.regex) };
  if (so.structural_tag !== undefined) throw badRequest("structured_outputs.structural_tag is not supported by the embedded engine.");
  return undefined;
}
