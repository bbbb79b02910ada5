import { describe, expect, it } from "vitest";
import { checkJsonSchema } from "./json-schema-check";

const field = "response_format.json_schema.schema";
const refusal = (schema: object) => {
  try {
    checkJsonSchema(schema, field);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("accepted");
};

describe("JSON schemas the embedded engine can honour", () => {
  it("accepts the converter's subset and turns anyOf into oneOf", () => {
    const schema = {
      type: "object",
      $defs: { point: { type: "object", properties: { x: { type: "number" } } } },
      properties: {
        name: { type: "string", maxLength: 20, description: "ignored annotation" },
        when: { type: "string", format: "date-time" },
        tags: { type: "array", items: { enum: ["a", "b"] }, maxItems: 3 },
        at: { $ref: "#/$defs/point" },
        maybe: { anyOf: [{ type: "integer" }, { type: "null" }] },
        either: { type: ["string", "null"] },
      },
      required: ["name"],
      additionalProperties: false,
    };
    const checked = checkJsonSchema(schema, field) as { properties: Record<string, object> };
    expect(checked.properties.maybe).toEqual({ oneOf: [{ type: "integer" }, { type: "null" }] });
    expect(checked.properties.at).toEqual({ $ref: "#/$defs/point" });
  });

  it.each([
    [{ type: "nonsense" }, `${field}.type: must be one of string, number, integer, boolean, null, object, array (or a list of them).`],
    [{ type: "object", properties: { age: { type: "integer", minimum: 0 } } }, `${field}.properties.age.minimum: 'minimum' is not supported by the embedded engine's JSON schema grammar.`],
    [{ type: "string", pattern: "^a" }, `${field}.pattern: 'pattern' is not supported by the embedded engine's JSON schema grammar.`],
    [{ type: "string", format: "email" }, `${field}.format: only the formats date, time, date-time are supported.`],
    [{ properties: { a: { type: "string" } } }, `${field}: a schema needs a type, enum, const, anyOf, oneOf or $ref (a schema for any value is not supported).`],
    [{ $ref: "#/definitions/a" }, `${field}.$ref: only references of the form '#/$defs/<name>' are supported.`],
    [{ type: "array", items: { $ref: "#/$defs/missing" } }, `${field}.items.$ref: '#/$defs/missing' names no definition in $defs.`],
    [{ type: ["object", "null"] }, `${field}.type: a list of types may hold only string, number, integer, boolean and null; use anyOf for objects and arrays.`],
    [{ enum: 5 }, `${field}.enum: must be a non-empty array.`],
    [{ type: "object", properties: { a: true } }, `${field}.properties.a: a schema must be an object.`],
    [{ type: "string", maxLength: -1 }, `${field}.maxLength: must be a non-negative integer.`],
    [{ oneOf: [] }, `${field}.oneOf: must be a non-empty array of schemas.`],
  ])("refuses %j", (schema, message) => {
    expect(refusal(schema)).toBe(message);
  });

  it("bounds nesting and size", () => {
    let deep: object = { type: "string" };
    for (let i = 0; i < 70; i++) deep = { type: "array", items: deep };
    expect(refusal(deep)).toMatch(/nests deeper than 64 levels/);
    expect(refusal({ enum: Array.from({ length: 5000 }, (_, i) => `value-${i}`) })).toMatch(/^response_format\.json_schema\.schema is \d+ characters of JSON; the limit is 32768\.$/);
  });
});
