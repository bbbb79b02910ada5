import { badRequest } from "@/lib/contract/errors";
import { MAX_GRAMMAR_CHARACTERS, MAX_GRAMMAR_NESTING } from "./grammar-bounds";

// A JSON schema checked against what node-llama-cpp's schema-to-GBNF converter honours, before it
// is converted. The converter silently turns what it does not know into something else (an
// unknown type, or a schema without one, into `null`; an unknown $ref into any JSON; an unknown
// format into the empty string; anyOf into `null`), ignores constraints it lacks (pattern,
// minimum, …) and throws on malformed keyword values. Each is refused here with a 400 that names
// its place in the request. anyOf becomes oneOf: to generate one value they mean the same.

const TYPES = new Set(["string", "number", "integer", "boolean", "null", "object", "array"]);
const SCALAR_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);
const FORMATS = new Set(["date", "time", "date-time"]);
const COUNTS = ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"];
const UNSUPPORTED = [
  "allOf", "not", "if", "then", "else", "pattern", "patternProperties", "propertyNames", "minimum", "maximum",
  "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "uniqueItems", "contains", "minContains", "maxContains",
  "dependentRequired", "dependentSchemas", "dependencies", "unevaluatedProperties", "unevaluatedItems",
];

type Schema = Record<string, unknown>;

const isObject = (value: unknown): value is Schema => typeof value === "object" && value !== null && !Array.isArray(value);

/** The schema as the converter should get it, or a 400 naming the first place it cannot honour. */
export function checkJsonSchema(schema: object, field: string): Schema {
  const size = JSON.stringify(schema).length;
  if (size > MAX_GRAMMAR_CHARACTERS) throw badRequest(`${field} is ${size} characters of JSON; the limit is ${MAX_GRAMMAR_CHARACTERS}.`);
  return check(schema, field, 0, new Set());
}

function check(schema: unknown, at: string, depth: number, defsInScope: ReadonlySet<string>): Schema {
  const fail = (where: string, message: string): never => {
    throw badRequest(`${where}: ${message}`);
  };
  if (depth > MAX_GRAMMAR_NESTING) fail(at, `the schema nests deeper than ${MAX_GRAMMAR_NESTING} levels.`);
  if (!isObject(schema)) return fail(at, "a schema must be an object.");
  for (const keyword of UNSUPPORTED) {
    if (keyword in schema) fail(`${at}.${keyword}`, `'${keyword}' is not supported by the embedded engine's JSON schema grammar.`);
  }
  const out: Schema = { ...schema };
  const sub = (value: unknown, path: string, defs = scope) => check(value, `${at}.${path}`, depth + 1, defs);
  const schemas = (value: unknown, path: string): Schema[] => {
    if (!Array.isArray(value) || value.length === 0) return fail(`${at}.${path}`, "must be a non-empty array of schemas.");
    return value.map((item, i) => sub(item, `${path}[${i}]`));
  };

  let scope = defsInScope;
  if (schema.$defs !== undefined) {
    if (!isObject(schema.$defs)) fail(`${at}.$defs`, "must be an object of schemas.");
    const defs = schema.$defs as Schema;
    scope = new Set([...defsInScope, ...Object.keys(defs)]);
    out.$defs = Object.fromEntries(Object.entries(defs).map(([name, def]) => [name, sub(def, `$defs.${name}`)]));
  }
  for (const keyword of COUNTS) {
    const value = schema[keyword];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0)) fail(`${at}.${keyword}`, "must be a non-negative integer.");
  }

  if (schema.$ref !== undefined) {
    const name = typeof schema.$ref === "string" ? /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
    if (name === undefined) fail(`${at}.$ref`, "only references of the form '#/$defs/<name>' are supported.");
    if (!scope.has(name!)) fail(`${at}.$ref`, `'${schema.$ref as string}' names no definition in $defs.`);
    return out;
  }
  if (schema.anyOf !== undefined) {
    if (schema.oneOf !== undefined) fail(at, "give either anyOf or oneOf, not both.");
    out.oneOf = schemas(schema.anyOf, "anyOf");
    delete out.anyOf;
    return out;
  }
  if (schema.oneOf !== undefined) {
    out.oneOf = schemas(schema.oneOf, "oneOf");
    return out;
  }
  if (schema.const !== undefined) return out;
  if (schema.enum !== undefined) {
    if (!Array.isArray(schema.enum) || schema.enum.length === 0) fail(`${at}.enum`, "must be a non-empty array.");
    return out;
  }

  const type = schema.type;
  if (type === undefined) return fail(at, "a schema needs a type, enum, const, anyOf, oneOf or $ref (a schema for any value is not supported).");
  const types = Array.isArray(type) ? type : [type];
  if (types.length === 0 || !types.every((t) => typeof t === "string" && TYPES.has(t))) {
    fail(`${at}.type`, `must be one of ${[...TYPES].join(", ")} (or a list of them).`);
  }
  if (types.length > 1 && !types.every((t) => SCALAR_TYPES.has(t as string))) {
    fail(`${at}.type`, "a list of types may hold only string, number, integer, boolean and null; use anyOf for objects and arrays.");
  }
  if (type === "object") {
    if (schema.properties !== undefined) {
      if (!isObject(schema.properties)) fail(`${at}.properties`, "must be an object of schemas.");
      out.properties = Object.fromEntries(Object.entries(schema.properties as Schema).map(([name, value]) => [name, sub(value, `properties.${name}`)]));
    }
    const extra = schema.additionalProperties;
    if (extra !== undefined && typeof extra !== "boolean") out.additionalProperties = sub(extra, "additionalProperties");
    if (schema.required !== undefined && !(Array.isArray(schema.required) && schema.required.every((r) => typeof r === "string"))) {
      fail(`${at}.required`, "must be an array of property names.");
    }
  }
  if (type === "array") {
    if (schema.items !== undefined) out.items = sub(schema.items, "items");
    if (schema.prefixItems !== undefined) out.prefixItems = schemas(schema.prefixItems, "prefixItems");
  }
  if (type === "string" && schema.format !== undefined && !FORMATS.has(schema.format as string)) {
    fail(`${at}.format`, `only the formats ${[...FORMATS].join(", ")} are supported.`);
  }
  return out;
}
