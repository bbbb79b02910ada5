import type { Llama, LlamaGrammar } from "node-llama-cpp";
import { badRequest } from "@/lib/contract/errors";
import type { ChatCompletionRequest } from "@/lib/inference/chat-request";
import { checkGrammarBounds } from "./grammar-bounds";
import { checkJsonSchema } from "./json-schema-check";
import { regexToGbnf } from "./regex-to-gbnf";

// response_format and structured_outputs → one grammar for the sampler's mask (vLLM merges
// response_format into structured_outputs the same way), compiled once per request while the
// prompt is prepared: a grammar llama.cpp refuses is the request's 400, naming its field, before
// any choice (or SSE stream) starts.

type GrammarSource = { field: string; gbnf: string; translated?: boolean } | { field: string; jsonSchema: object };

const gbnfString = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t")}"`;

function grammarSource(request: ChatCompletionRequest): GrammarSource | undefined {
  const format = request.response_format;
  if (format?.type === "json_schema") return { field: "response_format.json_schema.schema", jsonSchema: format.json_schema.schema ?? { type: "object" } };
  if (format?.type === "json_object") return { field: "response_format", jsonSchema: { type: "object" } };
  if (format?.type === "structural_tag") throw badRequest("response_format type 'structural_tag' is not supported by the embedded engine.");
  const so = request.structured_outputs;
  if (!so) return undefined;
  if (so.json !== undefined) {
    if (typeof so.json !== "string") return { field: "structured_outputs.json", jsonSchema: so.json };
    let parsed: unknown;
    try {
      parsed = JSON.parse(so.json);
    } catch {
      throw badRequest("structured_outputs.json is not valid JSON.");
    }
    return { field: "structured_outputs.json", jsonSchema: parsed as object };
  }
  if (so.json_object) return { field: "structured_outputs.json_object", jsonSchema: { type: "object" } };
  if (so.choice) return { field: "structured_outputs.choice", gbnf: `root ::= ${so.choice.map(gbnfString).join(" | ")}`, translated: true };
  if (so.grammar !== undefined) return { field: "structured_outputs.grammar", gbnf: so.grammar };
  if (so.regex !== undefined) return { field: "structured_outputs.regex", gbnf: regexToGbnf(so.regex), translated: true };
  if (so.structural_tag !== undefined) throw badRequest("structured_outputs.structural_tag is not supported by the embedded engine.");
  return undefined;
}

/** The request's output grammar, compiled by llama.cpp; undefined when the output is free. */
export async function compileStructuredOutput(llama: Llama, request: ChatCompletionRequest): Promise<LlamaGrammar | undefined> {
  const source = grammarSource(request);
  if (!source) return undefined;
  if ("gbnf" in source) {
    checkGrammarBounds(source.gbnf, source.field, source.translated);
    try {
      return await llama.createGrammar({ grammar: source.gbnf });
    } catch {
      // llama.cpp prints its reason to stderr only; the common ones are named instead.
      throw badRequest(
        `${source.field}: llama.cpp cannot parse ${source.translated ? "the grammar it translates to" : "this GBNF grammar"} (a syntax error, an undefined rule, no 'root' rule, left recursion, or repetitions beyond llama.cpp's limits).`,
      );
    }
  }
  const schema = checkJsonSchema(source.jsonSchema, source.field);
  try {
    // node-llama-cpp types schemas as deep literal types; the checked schema is what it accepts.
    return await llama.createGrammarForJsonSchema(schema as Parameters<Llama["createGrammarForJsonSchema"]>[0]);
  } catch (error) {
    const reason = (error as Error).message;
    throw badRequest(
      reason === "Failed to parse grammar"
        ? `${source.field}: llama.cpp cannot parse the grammar this schema compiles to (typically a count such as minLength or maxItems beyond its repetition limits).`
        : `${source.field}: the schema cannot be compiled to a grammar: ${reason}`,
    );
  }
}
