// The specs a build names, checked against the project's current definitions (a name that is no
// live spec, or a spec of the wrong type, is a 422 at its field), and the rule that selects calls.
import { invalid } from "@/lib/contract/errors";
import { getDb } from "@/lib/db/client";
import type { SpecType } from "@/lib/feedback/annotation-spec-schemas";
import type { ValueKind } from "./combine-annotations";
import type { ResolvedRule, RuleBody, RuleOp } from "./schemas";

export interface CurrentSpec {
  name: string;
  type: SpecType;
  options: string[];
}

/** The live spec `name` of the project, if its type is one of `types`; else a 422 at `loc`. */
export async function requireSpec(projectId: string, name: string, types: readonly SpecType[], loc: string[]): Promise<CurrentSpec> {
  const spec = await getDb().annotationSpec.findFirst({ where: { projectId, name, deletedAt: null }, orderBy: { version: "desc" } });
  if (!spec) throw invalid(loc, `no annotation spec '${name}' in the project`);
  const type = spec.type as SpecType;
  if (!types.includes(type)) throw invalid(loc, `'${name}' is a ${type} spec; this needs a ${types.join(" or ")} spec`);
  const options = (spec.settings as { options?: unknown }).options;
  return { name, type, options: Array.isArray(options) ? options.map(String) : [] };
}

const OP_TEXT: Record<RuleOp, string> = { ">=": "≥", ">": ">", "=": "=", "<=": "≤", "<": "<" };

/** The rule, checked against its spec's type: numeric needs op and a number, boolean true or false, categorical options. */
export async function resolveRule(projectId: string, rule: RuleBody): Promise<ResolvedRule> {
  const at = (field: string) => ["body", "rule", field];
  const spec = await requireSpec(projectId, rule.spec, ["numeric", "boolean", "categorical"], at("spec"));
  if (spec.type === "numeric") {
    if (!rule.op) throw invalid(at("op"), "a numeric rule needs op (>=, >, =, <=, <)");
    if (typeof rule.value !== "number") throw invalid(at("value"), "a numeric rule compares with a number");
    return { spec: spec.name, type: "numeric", op: rule.op, value: rule.value, text: `${spec.name} ${OP_TEXT[rule.op]} ${rule.value}` };
  }
  if (spec.type === "boolean") {
    if (typeof rule.value !== "boolean") throw invalid(at("value"), "a boolean rule is value: true or value: false");
    if (rule.op && rule.op !== "=") throw invalid(at("op"), "a boolean rule compares with =");
    return { spec: spec.name, type: "boolean", value: rule.value, text: `${spec.name} = ${rule.value}` };
  }
  if (!rule.in) throw invalid(at("in"), "a categorical rule lists the options that pass (in)");
  const unknown = rule.in.findIndex((option) => !spec.options.includes(option));
  if (unknown >= 0) throw invalid([...at("in"), String(unknown)], `'${rule.in[unknown]}' is not an option of '${spec.name}' (${spec.options.join(", ")})`);
  return { spec: spec.name, type: "categorical", in: rule.in, text: `${spec.name} in {${rule.in.join(", ")}}` };
}

export function passesRule(rule: ResolvedRule, value: number | boolean | string): boolean {
  if (rule.type === "categorical") return typeof value === "string" && rule.in!.includes(value);
  if (rule.type === "boolean") return value === rule.value;
  if (typeof value !== "number") return false;
  const bound = rule.value as number;
  switch (rule.op!) {
    case ">=": return value >= bound;
    case ">": return value > bound;
    case "=": return value === bound;
    case "<=": return value <= bound;
    case "<": return value < bound;
  }
}

export const valueKind = (type: SpecType): ValueKind => (type === "numeric" ? "numeric" : type === "boolean" ? "boolean" : "categorical");
