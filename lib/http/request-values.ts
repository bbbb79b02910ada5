import { ValidationError, type ValidationIssue } from "@/lib/contract/errors";
import { textProblem } from "@/lib/contract/text";

// What every value a request carries (path parameters, query values, JSON or form bodies) must be
// before its schema sees it. Strings Anneal cannot keep as sent (lib/contract/text.ts) are refused
// where they arrive, with their location, instead of failing in a query later (a 500, or a
// recorded call lost after its response was sent). Nesting is bounded, so no code
// that walks a body can overflow the stack. In JSON bodies, null object fields are dropped: "null
// means default" (docs/contract.md), at every depth; array elements are kept as they are.

/** Deepest nesting of arrays and objects a body may have (serde_json's default limit). */
export const MAX_NESTING_DEPTH = 128;

function refuse(loc: string[], msg: string, type = "value_error"): never {
  throw new ValidationError([{ loc, msg, type } satisfies ValidationIssue]);
}

function checkText(text: string, path: string[]): void {
  const problem = textProblem(text);
  if (problem) refuse([...path], `String ${problem}.`, "string_unicode");
}

/** Where null object fields are dropped: nowhere, everywhere, or everywhere but under these body fields. */
type NullRule = false | true | ReadonlySet<string>;

function walk(value: unknown, path: string[], dropNulls: NullRule): unknown {
  if (typeof value === "string") {
    checkText(value, path);
    return value;
  }
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Blob) {
    if (value instanceof File) checkText(value.name, [...path, "filename"]);
    return value;
  }
  // path = [source, ...fields]: its length beyond the source is this value's depth.
  if (path.length > MAX_NESTING_DEPTH) {
    refuse(path.slice(0, 1), `Nesting deeper than ${MAX_NESTING_DEPTH} levels of arrays and objects.`, "too_deep");
  }
  if (Array.isArray(value)) {
    return value.map((item, index) => {
      path.push(String(index));
      const out = walk(item, path, dropNulls);
      path.pop();
      return out;
    });
  }
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    path.push(key);
    checkText(key, path);
    // A top-level field named in the rule keeps its nulls at every depth below it (free-form JSON).
    const rule = dropNulls instanceof Set ? (path.length === 2 && dropNulls.has(key) ? false : dropNulls) : dropNulls;
    if (!(rule !== false && field === null)) out[key] = walk(field, path, rule);
    path.pop();
  }
  return out;
}

/**
 * `value` from `source` (`path`, `query`, `body`), checked as above; with `dropNulls` (JSON
 * bodies), without its null object fields — except under the top-level fields listed in
 * `keepNullsIn`, whose JSON is the client's data (a feedback payload, a query's literals).
 * Throws a 422 ValidationError at the offending place.
 */
export function checkRequestValues<T>(source: string, value: T, { dropNulls = false, keepNullsIn = [] as readonly string[] } = {}): T {
  if (dropNulls && keepNullsIn.length > 0) return walk(value, [source], new Set(keepNullsIn)) as T;
  return walk(value, [source], dropNulls) as T;
}
