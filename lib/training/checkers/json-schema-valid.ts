import { z } from "zod";

// Reward 1 when the reply (trimmed, optionally inside one ``` fence) is JSON valid against a
// JSON schema. The schema is compiled once per run by zod's fromJSONSchema (a schema it cannot
// read is refused when the run is created).

export type JsonValidator = (value: unknown) => boolean;

export function compileJsonSchema(schema: Record<string, unknown>): JsonValidator {
  const compiled = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  return (value) => compiled.safeParse(value).success;
}

const FENCE = /^```(?:json)?\s*\n?([\s\S]*?)\n?```$/;

export function jsonSchemaValid(reply: string, validate: JsonValidator): number {
  const text = reply.trim();
  const body = FENCE.exec(text)?.[1] ?? text;
  try {
    return validate(JSON.parse(body)) ? 1 : 0;
  } catch {
    return 0;
  }
}
