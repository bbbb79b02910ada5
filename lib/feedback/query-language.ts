import { badRequest, invalid } from "@/lib/contract/errors";
import { Prisma } from "@/lib/db/generated/client";
import { fieldSql, type ValueType } from "./feedback-fields";
import { canonicalizeRefText } from "./refs";

// W&B Weave's query language (`{$expr}`), compiled to one parameterised SQL condition over a
// project's feedback rows, so filtering happens in the database, never in JavaScript.
//
// Values are typed. A literal compared with a field takes the field's type; a payload path (JSON,
// untyped) compared with a literal takes the literal's type, so `payload.score > 3` compares
// numbers; two fields of different types compare as text. Conversions never fail in SQL: a value
// that is not a number (bool, ...) converts to NULL, and NULL matches nothing. `$eq` with a null
// literal is IS NULL. Text orders bytewise (COLLATE "C"), the same on PostgreSQL and PGlite.

export const OPERATORS = ["$and", "$or", "$not", "$eq", "$gt", "$gte", "$in", "$contains", "$getField", "$literal", "$convert"] as const;
const CONVERSIONS = ["double", "int", "bool", "string", "exists"] as const;

type Literal = string | number | boolean | null;

interface Value {
  sql: Prisma.Sql;
  type: ValueType | "null";
  /** Set on literals: converted in JavaScript, where a failure is known before the query runs. */
  literal?: Literal;
  /** A payload path: untyped JSON, typed by what it meets. */
  json?: Prisma.Sql;
  /** A ref column: literal text compared with it is canonicalized. */
  ref?: boolean;
}

const NUMBER_TEXT = String.raw`^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d{1,3})?\s*$`;
const INTEGER_TEXT = String.raw`^\s*[-+]?\d{1,18}\s*$`;
/** A text value as a number: numeric text (JSON numbers, "12") converts, anything else is NULL. */
export const numberFromText = (text: Prisma.Sql) => Prisma.sql`(CASE WHEN ${text} ~ ${NUMBER_TEXT} THEN (${text})::numeric END)`;

const NULL_OF: Record<ValueType, Prisma.Sql> = {
  text: Prisma.sql`NULL::text`,
  number: Prisma.sql`NULL::numeric`,
  boolean: Prisma.sql`NULL::boolean`,
  timestamp: Prisma.sql`NULL::timestamptz`,
};

class Compiler {
  constructor(private readonly projectRef: string) {}

  /** The condition `expr` stands for (a boolean SQL expression). */
  condition(expr: unknown, loc: string[]): Prisma.Sql {
    return this.asBoolean(this.operand(expr, loc));
  }

  private operand(node: unknown, loc: string[]): Value {
    if (typeof node !== "object" || node === null || Array.isArray(node)) throw invalid(loc, "must be an operation: an object with one operator such as $eq or $getField");
    const keys = Object.keys(node);
    if (keys.length !== 1) throw invalid(loc, `an operation has exactly one operator, got ${keys.length ? keys.join(", ") : "none"}`);
    const [operator] = keys;
    const arg = (node as Record<string, unknown>)[operator];
    const at = [...loc, operator];
    switch (operator) {
      case "$and":
      case "$or": {
        const items = this.list(arg, at, 1);
        const parts = items.map((item, i) => this.condition(item, [...at, String(i)]));
        return this.bool(Prisma.sql`(${Prisma.join(parts, operator === "$and" ? " AND " : " OR ")})`);
      }
      case "$not": {
        const [inner] = this.list(arg, at, 1, 1);
        return this.bool(Prisma.sql`(NOT COALESCE(${this.condition(inner, [...at, "0"])}, FALSE))`);
      }
      case "$eq":
      case "$gt":
      case "$gte":
        return this.compare(operator, arg, at);
      case "$in":
        return this.in(arg, at);
      case "$contains":
        return this.contains(arg, at);
      case "$getField": {
        if (typeof arg !== "string") throw invalid(at, "must be a field name");
        const field = fieldSql(arg, this.projectRef);
        return { sql: field.value, type: field.type, json: field.json, ref: field.ref };
      }
      case "$literal":
        return this.literal(arg, at);
      case "$convert":
        return this.convertOperation(arg, at);
      default:
        throw badRequest(`Unsupported query operator '${operator}' at ${at.slice(1).join(".")}: feedback queries take ${OPERATORS.join(", ")}.`);
    }
  }

  private list(arg: unknown, loc: string[], min: number, max = Infinity): unknown[] {
    if (!Array.isArray(arg)) throw invalid(loc, "must be a list of operations");
    if (arg.length < min || arg.length > max) {
      throw invalid(loc, max === min ? `takes exactly ${min} operand${min > 1 ? "s" : ""}` : `takes at least ${min} operand${min > 1 ? "s" : ""}`);
    }
    return arg;
  }

  private bool(sql: Prisma.Sql): Value {
    return { sql, type: "boolean" };
  }

  private literal(value: unknown, loc: string[]): Value {
    if (value === null) return { sql: Prisma.sql`NULL`, type: "null", literal: null };
    if (typeof value === "string") return { sql: Prisma.sql`${value}::text`, type: "text", literal: value };
    if (typeof value === "number") return { sql: Prisma.sql`${String(value)}::numeric`, type: "number", literal: value };
    if (typeof value === "boolean") return { sql: Prisma.sql`${value}::boolean`, type: "boolean", literal: value };
    throw invalid(loc, "a literal compared here is a string, number, boolean or null (a list of literals is $in's second operand)");
  }

  private compare(operator: "$eq" | "$gt" | "$gte", arg: unknown, loc: string[]): Value {
    const [left, right] = this.list(arg, loc, 2, 2).map((item, i) => this.operand(item, [...loc, String(i)]));
    if (left.type === "null" || right.type === "null") {
      const other = left.type === "null" ? right : left;
      if (operator !== "$eq") return this.bool(Prisma.sql`FALSE`);
      return this.bool(other.type === "null" ? Prisma.sql`TRUE` : Prisma.sql`(${other.sql} IS NULL)`);
    }
    const [a, b] = this.unify(left, right, loc);
    const sign = Prisma.raw(operator === "$eq" ? "=" : operator === "$gt" ? ">" : ">=");
    const collate = a.type === "text" && operator !== "$eq" ? Prisma.raw(` COLLATE "C"`) : Prisma.empty;
    return this.bool(Prisma.sql`(${a.sql}${collate} ${sign} ${b.sql}${collate})`);
  }

  private in(arg: unknown, loc: string[]): Value {
    const [needleNode, listNode] = this.list(arg, loc, 2, 2);
    const needle = this.operand(needleNode, [...loc, "0"]);
    const listLoc = [...loc, "1"];
    const literalList = typeof listNode === "object" && listNode !== null && !Array.isArray(listNode) && Object.keys(listNode).length === 1 && "$literal" in listNode;
    const items = literalList
      ? this.list((listNode as { $literal: unknown }).$literal, [...listLoc, "$literal"], 0).map((v, i) => this.literal(v, [...listLoc, "$literal", String(i)]))
      : this.list(listNode, listLoc, 0).map((item, i) => this.operand(item, [...listLoc, String(i)]));
    const nullable = items.some((item) => item.type === "null");
    const values = items.filter((item) => item.type !== "null");
    const matches: Prisma.Sql[] = [];
    if (values.length) {
      // A payload path takes the type of the first item it is compared with, the items the needle's.
      const target = needle.json && values[0].type !== "null" ? this.convert(needle, values[0].type as ValueType, loc) : needle;
      const unified = values.map((item) => this.unify(target, item, loc)[1]);
      const typedNeedle = this.unify(target, values[0], loc)[0];
      matches.push(Prisma.sql`(${typedNeedle.sql} IN (${Prisma.join(unified.map((u) => u.sql))}))`);
    }
    if (nullable) matches.push(Prisma.sql`(${needle.sql} IS NULL)`);
    return this.bool(matches.length ? Prisma.sql`(${Prisma.join(matches, " OR ")})` : Prisma.sql`FALSE`);
  }

  private contains(arg: unknown, loc: string[]): Value {
    if (typeof arg !== "object" || arg === null || Array.isArray(arg)) throw invalid(loc, "must be {input, substr, case_insensitive?}");
    const spec = arg as { input?: unknown; substr?: unknown; case_insensitive?: unknown };
    if (spec.input === undefined) throw invalid([...loc, "input"], "Field required", "missing");
    if (spec.substr === undefined) throw invalid([...loc, "substr"], "Field required", "missing");
    if (spec.case_insensitive !== undefined && spec.case_insensitive !== null && typeof spec.case_insensitive !== "boolean") {
      throw invalid([...loc, "case_insensitive"], "must be true or false", "bool_type");
    }
    const input = this.convert(this.operand(spec.input, [...loc, "input"]), "text", loc).sql;
    const substr = this.convert(this.operand(spec.substr, [...loc, "substr"]), "text", loc).sql;
    return this.bool(
      spec.case_insensitive ? Prisma.sql`(strpos(lower(${input}), lower(${substr})) > 0)` : Prisma.sql`(strpos(${input}, ${substr}) > 0)`,
    );
  }

  private convertOperation(arg: unknown, loc: string[]): Value {
    if (typeof arg !== "object" || arg === null || Array.isArray(arg)) throw invalid(loc, "must be {input, to}");
    const spec = arg as { input?: unknown; to?: unknown };
    if (spec.input === undefined) throw invalid([...loc, "input"], "Field required", "missing");
    if (!CONVERSIONS.includes(spec.to as (typeof CONVERSIONS)[number])) {
      throw invalid([...loc, "to"], `must be one of ${CONVERSIONS.join(", ")}`, "enum");
    }
    const input = this.operand(spec.input, [...loc, "input"]);
    switch (spec.to as (typeof CONVERSIONS)[number]) {
      case "exists":
        return this.bool(Prisma.sql`(${input.json ?? input.sql} IS NOT NULL)`);
      case "double":
        return this.convert(input, "number", loc);
      case "int": {
        const number = this.convert(input, "number", loc);
        if (input.type === "text") {
          return { sql: Prisma.sql`(CASE WHEN ${input.sql} ~ ${INTEGER_TEXT} THEN (${input.sql})::numeric END)`, type: "number" };
        }
        return { ...number, sql: Prisma.sql`trunc(${number.sql})`, literal: undefined };
      }
      case "bool":
        return this.convert(input, "boolean", loc);
      case "string":
        return this.convert(input, "text", loc);
    }
  }

  /** Both sides of a comparison in one type (see the rules at the top). */
  private unify(a: Value, b: Value, loc: string[]): [Value, Value] {
    if (a.type === b.type) return [this.canonical(a, b), this.canonical(b, a)];
    if (a.json && b.literal !== undefined) return [this.convert(a, b.type as ValueType, loc), b];
    if (b.json && a.literal !== undefined) return [a, this.convert(b, a.type as ValueType, loc)];
    if (a.literal !== undefined) return [this.canonical(this.convert(a, b.type as ValueType, loc), b), b];
    if (b.literal !== undefined) return [a, this.canonical(this.convert(b, a.type as ValueType, loc), a)];
    if (a.json && b.type !== "timestamp") return [this.convert(a, b.type as ValueType, loc), b];
    if (b.json && a.type !== "timestamp") return [a, this.convert(b, a.type as ValueType, loc)];
    return [this.convert(a, "text", loc), this.convert(b, "text", loc)];
  }

  /** A text literal compared with a ref column, in canonical ref form. */
  private canonical(value: Value, other: Value): Value {
    if (!other.ref || typeof value.literal !== "string") return value;
    const literal = canonicalizeRefText(value.literal);
    return { ...value, literal, sql: Prisma.sql`${literal}::text` };
  }

  private convert(value: Value, to: ValueType, loc: string[]): Value {
    if (value.type === to) return { ...value, json: undefined };
    if (value.literal !== undefined) return this.convertLiteral(value.literal, to, loc);
    const x = value.sql;
    const sql = ((): Prisma.Sql => {
      switch (to) {
        case "text":
          if (value.type === "timestamp") return Prisma.sql`to_char(${x} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
          return Prisma.sql`(${x})::text`;
        case "number":
          if (value.type === "text") return numberFromText(x);
          if (value.type === "boolean") return Prisma.sql`(CASE WHEN ${x} THEN 1 ELSE 0 END)::numeric`;
          return NULL_OF.number;
        case "boolean":
          if (value.type === "text") return Prisma.sql`(CASE lower(${x}) WHEN 'true' THEN TRUE WHEN 'false' THEN FALSE WHEN '1' THEN TRUE WHEN '0' THEN FALSE END)`;
          if (value.type === "number") return Prisma.sql`((${x}) <> 0)`;
          return NULL_OF.boolean;
        case "timestamp":
          return NULL_OF.timestamp;
      }
    })();
    return { sql, type: to };
  }

  private convertLiteral(literal: Literal, to: ValueType, loc: string[]): Value {
    const typed = (value: Literal): Value => (value === null ? { sql: NULL_OF[to], type: to, literal: null } : this.literal(value, loc));
    switch (to) {
      case "text":
        return typed(literal === null ? null : String(literal));
      case "number":
        if (typeof literal === "boolean") return typed(literal ? 1 : 0);
        if (typeof literal === "string" && new RegExp(NUMBER_TEXT).test(literal)) return { sql: Prisma.sql`${literal.trim()}::numeric`, type: "number", literal: Number(literal) };
        return typeof literal === "number" ? typed(literal) : typed(null);
      case "boolean": {
        if (typeof literal === "number") return typed(literal !== 0);
        const text = typeof literal === "string" ? literal.toLowerCase() : null;
        return typed(text === "true" || text === "1" ? true : text === "false" || text === "0" ? false : typeof literal === "boolean" ? literal : null);
      }
      case "timestamp": {
        // Weave's clients send ISO strings or Unix seconds.
        const date = typeof literal === "number" ? new Date(literal * 1000) : typeof literal === "string" ? new Date(literal) : null;
        if (!date || Number.isNaN(date.getTime()) || typeof literal === "boolean") {
          throw badRequest(`${JSON.stringify(literal)} at ${loc.slice(1).join(".")} is compared with a date-time: send an ISO 8601 date-time or Unix seconds.`);
        }
        return { sql: Prisma.sql`${date.toISOString()}::timestamptz`, type: "timestamp", literal: date.toISOString() };
      }
    }
  }

  private asBoolean(value: Value): Prisma.Sql {
    if (value.type === "null") return Prisma.sql`FALSE`;
    return this.convert(value, "boolean", []).sql;
  }
}

/** The SQL condition of a query's `$expr` over the project's feedback (`loc` is where it was sent). */
export function compileQuery(expr: unknown, projectRef: string, loc: string[]): Prisma.Sql {
  return new Compiler(projectRef).condition(expr, loc);
}
