import { ALL_OPERATIONS } from "@/lib/api/operations";
import { openApiDocument } from "@/lib/api/openapi";
import { DEFAULT_BODY_LIMIT, MiB } from "@/lib/contract/body-limits";
import type { Operation } from "@/lib/contract/operation";
import type { ApiOptions } from "../http";

// Malformed variants of a request to every operation of the OpenAPI document, each with the
// answer the contract gives it. Derived from the document itself, so every new route is fuzzed
// as soon as it is registered. No variant can pass validation: none creates anything.

export type Expectation =
  | { status: 422; loc: string[]; type?: string }
  | { status: 413; limit: number }
  | { status: 401 };

export interface Variant {
  operation: Operation;
  name: string;
  method: string;
  url: string;
  options: ApiOptions;
  expect: Expectation;
}

interface JsonSchema {
  type?: string | string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  format?: string;
  properties?: Record<string, JsonSchema>;
}

interface DocumentedOperation {
  parameters: { name: string; in: "path" | "query"; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

const BAD_ESCAPES = ["%ZZ", "%E0%A4%A", "%ED%A0%80"];
const DEEP = 4000;
const VALID_UUID = "01890a5d-ac96-774b-bcce-b302099a8057";

function types(schema: JsonSchema): Set<string> {
  const out = new Set<string>();
  if (typeof schema.type === "string") out.add(schema.type);
  if (Array.isArray(schema.type)) schema.type.forEach((t) => out.add(t));
  for (const option of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) types(option).forEach((t) => out.add(t));
  if (out.has("integer")) out.add("number");
  return out;
}

/** A JSON value of a type the schema does not take, if its types are known. */
function wrongTypeValue(schema: JsonSchema): unknown {
  const allowed = types(schema);
  if (allowed.size === 0) return undefined;
  const candidates: [string, unknown][] = [["string", 12345], ["number", "fuzz"], ["boolean", "fuzz"], ["array", "fuzz"], ["object", "fuzz"]];
  for (const [type, value] of candidates) if (allowed.has(type) && !allowed.has(typeof value === "number" ? "number" : "string")) return value;
  return allowed.has("string") ? undefined : "fuzz";
}

/** A query value the parameter's schema refuses, if one is known from the schema alone. */
function badQueryValues(schema: JsonSchema): string[] {
  const values = ["%00"];
  if (schema.enum) values.push("not-a-member");
  if (types(schema).has("integer") || types(schema).has("number")) values.push("abc", "1e999");
  if (schema.format === "uuid") values.push("not-a-uuid");
  if (schema.format === "date") values.push("2024-13-45", "2024-02-30", "0000-01-01");
  return values;
}

export function fuzzVariants(credentials: { key: string; workerKey: string }): Variant[] {
  const paths = (openApiDocument() as { paths: Record<string, Record<string, DocumentedOperation>> }).paths;
  const variants: Variant[] = [];
  for (const operation of ALL_OPERATIONS) {
    const documented = paths[operation.path][operation.method.toLowerCase()];
    const auth: ApiOptions =
      operation.auth === "public" ? {} : operation.auth === "bearer" ? { bearer: credentials.key } : operation.auth === "worker" ? { bearer: credentials.workerKey } : { basic: ["api", credentials.key] };
    const pathParams = documented.parameters.filter((p) => p.in === "path");
    // Parameters not under test get a valid value, so validation reaches the one that is.
    const validValue = (name: string) => {
      const schema = pathParams.find((p) => p.name === name)?.schema;
      return schema?.format === "uuid" ? VALID_UUID : schema && types(schema).has("number") ? "1" : "x";
    };
    const fill = (values: Record<string, string> = {}) =>
      operation.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? validValue(name));
    const add = (name: string, url: string, options: ApiOptions, expect: Expectation) =>
      variants.push({ operation, name: `${operation.method} ${operation.path}: ${name}`, method: operation.method, url, options: { ...auth, ...options, headers: { ...auth.headers, ...options.headers } }, expect });
    const unprocessable = (loc: string[], type?: string): Expectation => ({ status: 422, loc, type });

    for (const param of pathParams) {
      for (const escape of BAD_ESCAPES) add(`path ${param.name}=${escape}`, fill({ [param.name]: escape }), {}, unprocessable(["path", param.name]));
      add(`path ${param.name}=NUL`, fill({ [param.name]: "%00" }), {}, unprocessable(["path", param.name], "string_unicode"));
    }
    for (const param of documented.parameters.filter((p) => p.in === "query")) {
      for (const value of badQueryValues(param.schema)) {
        add(`query ${param.name}=${value}`, `${fill()}?${param.name}=${value}`, {}, unprocessable(["query", param.name]));
      }
    }
    add("Host: a b", fill(), { headers: { host: "a b" } }, unprocessable(["header", "host"]));
    if (operation.auth !== "public") {
      const nulLogins = ["nul\0user:password", `api:${credentials.key}\0`].map((login) => `Basic ${Buffer.from(login).toString("base64")}`);
      for (const authorization of ["Bearer", "Basic !!!", "Digest abc", "Bearer \u00e9\u00e9", ...nulLogins]) {
        add(`Authorization: ${authorization}`, fill(), { bearer: undefined, basic: undefined, headers: { authorization } }, { status: 401 });
      }
    }

    const content = documented.requestBody?.content;
    if (!content) continue;
    const limit = operation.bodyLimit ?? DEFAULT_BODY_LIMIT;
    const url = fill();
    const contentType = content["multipart/form-data"] ? "multipart/form-data; boundary=fuzz" : (content["application/json"] ? "application/json" : Object.keys(content)[0]);
    add("body over the limit, declared", url, { rawBody: "{}", headers: { "content-type": contentType, "content-length": String(limit + 1) } }, { status: 413, limit });
    add("body over the limit, streamed", url, { rawBody: new Uint8Array(limit + 1).fill(0x20), headers: { "content-type": contentType } }, { status: 413, limit });
    if (content["multipart/form-data"]) {
      add("JSON instead of multipart", url, { body: { purpose: "fine-tune" } }, unprocessable(["body"]));
      const nulName = new FormData();
      nulName.set("file", new File(["{}\n"], "train\0.jsonl"));
      nulName.set("purpose", "fine-tune");
      add("file name with NUL", url, { body: nulName }, unprocessable(["body", "file", "filename"], "string_unicode"));
      const nulField = new FormData();
      nulField.set("file", new File(["{}\n"], "train.jsonl"));
      nulField.set("purpose", "fine\0tune");
      add("form field with NUL", url, { body: nulField }, unprocessable(["body", "purpose"], "string_unicode"));
      continue;
    }
    // A binary body (an upload of a file's bytes) has no fields to get wrong: only its size is the contract's.
    if (!content["application/json"]) continue;
    const json = { "content-type": "application/json" };
    add("malformed JSON", url, { rawBody: '{"a": ', headers: json }, unprocessable(["body"], "json_invalid"));
    add("not UTF-8", url, { rawBody: Uint8Array.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), headers: json }, unprocessable(["body"], "json_invalid"));
    add(`nesting ${DEEP} deep`, url, { rawBody: `{"a": ${"[".repeat(DEEP)}${"]".repeat(DEEP)}}`, headers: json }, unprocessable(["body"], "too_deep"));
    add("NUL in a string", url, { body: { fuzz: "a\u0000b" } }, unprocessable(["body", "fuzz"], "string_unicode"));
    add("lone surrogate", url, { rawBody: '{"fuzz": "\\ud800"}', headers: json }, unprocessable(["body", "fuzz"], "string_unicode"));
    const schema = content["application/json"].schema;
    if (types(schema).has("object")) add("an array for the body", url, { body: [1] }, unprocessable(["body"]));
    for (const [field, fieldSchema] of Object.entries(schema.properties ?? {})) {
      const wrong = wrongTypeValue(fieldSchema);
      if (wrong !== undefined) add(`${field} of the wrong type`, url, { body: { [field]: wrong } }, unprocessable(["body", field]));
      if (types(fieldSchema).has("number") && !types(fieldSchema).has("string")) {
        add(`${field} = 1e999`, url, { rawBody: `{"${field}": 1e999}`, headers: json }, unprocessable(["body", field]));
      }
    }
  }
  return variants;
}

export const limitMessage = (limit: number) => `Request body exceeds this route's limit of ${limit / MiB} MiB.`;
