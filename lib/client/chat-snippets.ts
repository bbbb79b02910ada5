// "Copy as curl / Python / TypeScript" for one chat completion request: the exact body the
// console sent (or will send), with the API key read from $ANNEAL_API_KEY and the project header.
// Parameters the openai SDKs do not know (vLLM's top_k, return_tokens_as_token_ids, …) go where
// each SDK passes unknown fields through: Python's extra_body, a type assertion in TypeScript.

export interface SnippetInput {
  /** The server's origin, e.g. http://localhost:3000. */
  origin: string;
  /** `team/project`, sent as Svc-Project. */
  projectRef: string;
  body: Record<string, unknown>;
}

export interface ChatSnippets {
  curl: string;
  python: string;
  typescript: string;
}

/** Parameters of openai's `chat.completions.create` (both SDKs); anything else is an extra. */
const OPENAI_PARAMS = new Set([
  "model", "messages", "audio", "frequency_penalty", "function_call", "functions", "logit_bias", "logprobs",
  "max_completion_tokens", "max_tokens", "metadata", "modalities", "n", "parallel_tool_calls", "prediction",
  "presence_penalty", "reasoning_effort", "response_format", "seed", "service_tier", "stop", "store", "stream",
  "stream_options", "temperature", "tool_choice", "tools", "top_logprobs", "top_p", "user", "web_search_options",
]);

export function chatSnippets(input: SnippetInput): ChatSnippets {
  return { curl: curlSnippet(input), python: pythonSnippet(input), typescript: typescriptSnippet(input) };
}

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

function curlSnippet({ origin, projectRef, body }: SnippetInput): string {
  return [
    `curl${body.stream ? " -N" : ""} ${origin}/v1/chat/completions \\`,
    `  -H "Authorization: Bearer $ANNEAL_API_KEY" \\`,
    `  -H ${shellQuote(`Svc-Project: ${projectRef}`)} \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d ${shellQuote(JSON.stringify(body, null, 2))}`,
  ].join("\n");
}

function split(body: Record<string, unknown>) {
  const known: [string, unknown][] = [];
  const extra: [string, unknown][] = [];
  for (const entry of Object.entries(body)) {
    if (entry[1] === undefined) continue;
    (OPENAI_PARAMS.has(entry[0]) ? known : extra).push(entry);
  }
  return { known, extra };
}

// ---- Python ---------------------------------------------------------------------------------

function pyLiteral(value: unknown, indent: string): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    const flat = `[${value.map((v) => pyLiteral(v, "")).join(", ")}]`;
    if (flat.length <= 72 && !flat.includes("\n")) return flat;
    return `[\n${value.map((v) => `${inner}${pyLiteral(v, inner)},`).join("\n")}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  const flat = `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${pyLiteral(v, "")}`).join(", ")}}`;
  if (flat.length <= 72 && !flat.includes("\n")) return flat;
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${pyLiteral(v, inner)},`).join("\n")}\n${indent}}`;
}

function pythonSnippet({ origin, projectRef, body }: SnippetInput): string {
  const { known, extra } = split(body);
  const args = known.map(([key, value]) => `    ${key}=${pyLiteral(value, "    ")},`);
  if (extra.length > 0) args.push(`    extra_body=${pyLiteral(Object.fromEntries(extra), "    ")},`);
  const call = `client.chat.completions.create(\n${args.join("\n")}\n)`;
  const use = body.stream
    ? [
        `stream = ${call}`,
        `for chunk in stream:`,
        `    if chunk.choices and chunk.choices[0].delta.content:`,
        `        print(chunk.choices[0].delta.content, end="", flush=True)`,
        `    if chunk.usage:`,
        `        print(f"\\n{chunk.usage}")`,
      ]
    : [`completion = ${call}`, `print(completion.choices[0].message.content)`, `print(completion.usage)`];
  return [
    `import os`,
    ``,
    `from openai import OpenAI`,
    ``,
    `client = OpenAI(`,
    `    base_url=${JSON.stringify(`${origin}/v1`)},`,
    `    api_key=os.environ["ANNEAL_API_KEY"],`,
    `    default_headers={"Svc-Project": ${JSON.stringify(projectRef)}},`,
    `)`,
    ``,
    ...use,
  ].join("\n");
}

// ---- TypeScript -----------------------------------------------------------------------------

const tsKey = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key));

function tsLiteral(value: unknown, indent: string): string {
  if (value === null || value === undefined) return "null";
  if (typeof value !== "object") return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    const flat = `[${value.map((v) => tsLiteral(v, "")).join(", ")}]`;
    if (flat.length <= 72 && !flat.includes("\n")) return flat;
    return `[\n${value.map((v) => `${inner}${tsLiteral(v, inner)},`).join("\n")}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  const flat = `{ ${entries.map(([k, v]) => `${tsKey(k)}: ${tsLiteral(v, "")}`).join(", ")} }`;
  if (flat.length <= 72 && !flat.includes("\n")) return entries.length === 0 ? "{}" : flat;
  return `{\n${entries.map(([k, v]) => `${inner}${tsKey(k)}: ${tsLiteral(v, inner)},`).join("\n")}\n${indent}}`;
}

function typescriptSnippet({ origin, projectRef, body }: SnippetInput): string {
  const { known, extra } = split(body);
  const fields = known.map(([key, value]) => `  ${tsKey(key)}: ${tsLiteral(value, "  ")},`);
  if (extra.length > 0) {
    fields.push(`  // Anneal (vLLM) parameters beyond OpenAI's: the SDK sends them as they are.`);
    fields.push(...extra.map(([key, value]) => `  ${tsKey(key)}: ${tsLiteral(value, "  ")},`));
  }
  const paramsType = body.stream ? "OpenAI.ChatCompletionCreateParamsStreaming" : "OpenAI.ChatCompletionCreateParamsNonStreaming";
  const call = `await client.chat.completions.create({\n${fields.join("\n")}\n}${extra.length > 0 ? ` as ${paramsType}` : ""});`;
  const use = body.stream
    ? [
        `const stream = ${call}`,
        ``,
        `for await (const chunk of stream) {`,
        `  process.stdout.write(chunk.choices[0]?.delta?.content ?? "");`,
        `  if (chunk.usage) console.log(\`\\n\${JSON.stringify(chunk.usage)}\`);`,
        `}`,
      ]
    : [`const completion = ${call}`, ``, `console.log(completion.choices[0].message.content);`, `console.log(completion.usage);`];
  return [
    `import OpenAI from "openai";`,
    ``,
    `const client = new OpenAI({`,
    `  baseURL: ${JSON.stringify(`${origin}/v1`)},`,
    `  apiKey: process.env.ANNEAL_API_KEY,`,
    `  defaultHeaders: { "Svc-Project": ${JSON.stringify(projectRef)} },`,
    `});`,
    ``,
    ...use,
  ].join("\n");
}
