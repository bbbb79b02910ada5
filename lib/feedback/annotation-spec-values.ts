import type { SpecDefinition } from "./annotation-spec-schemas";

// Whether an annotation's `value` satisfies its spec; the problem in words when it does not.

export function specValueProblem(spec: SpecDefinition, value: unknown): string | null {
  switch (spec.type) {
    case "numeric":
      if (typeof value !== "number") return "must be a number";
      if (spec.integer && !Number.isInteger(value)) return "must be a whole number";
      if (spec.min !== undefined && value < spec.min) return `must be at least ${spec.min}`;
      if (spec.max !== undefined && value > spec.max) return `must be at most ${spec.max}`;
      return null;
    case "boolean":
      return typeof value === "boolean" ? null : "must be true or false";
    case "categorical":
      return typeof value === "string" && spec.options.includes(value) ? null : `must be one of ${spec.options.map((o) => JSON.stringify(o)).join(", ")}`;
    case "text":
    case "corrected_reply": {
      if (typeof value !== "string") return "must be a string";
      const length = [...value].length;
      if (length === 0) return "must not be empty";
      return length > spec.max_length ? `must be at most ${spec.max_length} characters` : null;
    }
  }
}
