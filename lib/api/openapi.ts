import { z } from "zod";
import { ALL_OPERATIONS } from "@/lib/api/operations";
import { ERROR_STATUS } from "@/lib/contract/errors";
import type { Operation } from "@/lib/contract/operation";

// The OpenAPI 3.1 document, built from the same zod schemas the route wrapper validates with.

const jsonSchema = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" });

function parameters(schema: z.ZodType | undefined, location: "path" | "query") {
  if (!(schema instanceof z.ZodObject)) return [];
  const objectSchema = jsonSchema(schema, "input") as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(objectSchema.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === "path" || (objectSchema.required ?? []).includes(name),
    schema: property,
  }));
}

const validationErrorSchema = {
  type: "object",
  properties: {
    detail: {
      type: "array",
      items: {
        type: "object",
        required: ["loc", "msg", "type"],
        properties: { loc: { type: "array", items: { type: "string" } }, msg: { type: "string" }, type: { type: "string" } },
      },
    },
  },
};
const errorSchema = { type: "object", properties: { detail: { type: "string" } } };

const SECURITY_SCHEMES = { bearer: "bearerAuth", basic: "basicAuth", worker: "workerKey" } as const;

function describe(op: Operation) {
  const responses: Record<string, unknown> = {
    [String(op.status ?? 200)]: {
      description: "Success",
      content: op.response ? { "application/json": { schema: jsonSchema(op.response, "output") } } : undefined,
    },
    "422": { description: "Validation error", content: { "application/json": { schema: validationErrorSchema } } },
  };
  const errors: (keyof typeof ERROR_STATUS)[] = op.auth === "public" ? [] : ["unauthorized", "forbidden", "not_found"];
  for (const code of [...errors, ...(op.body ? (["payload_too_large"] as const) : [])]) {
    responses[String(ERROR_STATUS[code])] = { description: code, content: { "application/json": { schema: errorSchema } } };
  }
  return {
    operationId: op.id,
    summary: op.summary,
    tags: [op.tag],
    security: op.auth === "public" ? [] : [{ [SECURITY_SCHEMES[op.auth]]: [] }],
    parameters: [...parameters(op.params, "path"), ...parameters(op.query, "query")],
    requestBody: op.body ? requestBody(op, op.body) : undefined,
    responses,
  };
}

function requestBody(op: Operation, body: z.ZodType) {
  if (op.bodyKind === "binary") {
    const bytes = { schema: { type: "string", format: "binary" } };
    return { required: true, description: "The file's bytes as they are (not JSON).", content: Object.fromEntries((op.binaryTypes ?? ["application/octet-stream"]).map((type) => [type, bytes])) };
  }
  return { required: true, description: BODY_RULES, content: { [op.bodyKind === "multipart" ? "multipart/form-data" : "application/json"]: { schema: jsonSchema(body, "input") } } };
}

// How every body is read (docs/contract.md), said on each body and in the document's description.
const BODY_RULES =
  "Unknown fields are accepted and ignored: never an error, never acted on (clients send extra keys); they are " +
  "dropped, except inside logged trajectories and experimental_config, which keep them as sent. " +
  "A field sent as null takes its default. Strings must be valid Unicode without NUL (U+0000); arrays " +
  "and objects nest at most 128 levels; the body must be UTF-8.";

let cached: Record<string, unknown> | undefined;

export function openApiDocument(): Record<string, unknown> {
  if (cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of ALL_OPERATIONS) (paths[op.path] ??= {})[op.method.toLowerCase()] = describe(op);
  cached = {
    openapi: "3.1.0",
    info: { title: "Anneal", version: "0.1.0", description: `Training and inference service: REST API. Request bodies: ${BODY_RULES}` },
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "An API key (Settings → API keys, or `npm run anneal -- create-api-key`)." },
        basicAuth: { type: "http", scheme: "basic", description: "username:password, or api:<API key>." },
        workerKey: { type: "http", scheme: "bearer", description: "A worker key (`awk-…`, POST /v1/preview/worker-keys): the /v1/workers routes take it and nothing else (docs/workers.md)." },
      },
    },
  };
  return cached;
}
