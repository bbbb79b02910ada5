// EXPLAIN (ANALYZE, FORMAT JSON) condensed for a benchmark report: each plan node with the time
// spent in it rather than in its children ("self"), the plan as an indented outline, and the nodes
// that cost most. Times are PostgreSQL's per-loop averages; under a Gather they are per process (a
// parallel scan's is the time each worker spent, not the sum), elsewhere multiplied by the loops.
// A CTE is computed by whichever scan of it reads first: that scan's time has the CTE's own
// subtracted, so the work is counted once, in the CTE's nodes.

export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "CTE Name"?: string;
  Alias?: string;
  /** Aggregate nodes: Plain, Sorted, Hashed or Mixed. */
  Strategy?: string;
  "Subplan Name"?: string;
  "Parent Relationship"?: string;
  "Actual Total Time": number;
  "Actual Loops": number;
  "Actual Rows": number;
  "Workers Launched"?: number;
  Plans?: PlanNode[];
}

export interface NodeCost {
  label: string;
  depth: number;
  totalMs: number;
  selfMs: number;
}

const PARALLEL_ROOTS = new Set(["Gather", "Gather Merge"]);
/** The names EXPLAIN's text form gives aggregates. */
const AGGREGATES: Record<string, string> = { Hashed: "HashAggregate", Sorted: "GroupAggregate", Mixed: "MixedAggregate" };

function label(node: PlanNode): string {
  const type = node["Node Type"] === "Aggregate" ? (AGGREGATES[node.Strategy ?? ""] ?? "Aggregate") : node["Node Type"];
  const parts = [node["Subplan Name"] ? `[${node["Subplan Name"]}] ` : "", type];
  if (node["Relation Name"]) parts.push(` on ${node["Relation Name"]}`);
  else if (node["CTE Name"]) parts.push(` of ${node["CTE Name"]}`);
  else if (node.Alias) parts.push(` ${node.Alias}`);
  if (node["Workers Launched"] !== undefined) parts.push(` (${node["Workers Launched"]} workers)`);
  return parts.join("");
}

/** Every node of the plan, depth first, with its total and self time in milliseconds. */
export function planCosts(root: PlanNode): NodeCost[] {
  const out: NodeCost[] = [];
  const cteTotals = new Map<string, number>();
  const cteDrivers = new Map<string, NodeCost>();
  const visit = (node: PlanNode, depth: number, parallel: boolean): number => {
    const inParallel = parallel || PARALLEL_ROOTS.has(node["Node Type"]);
    const total = node["Actual Total Time"] * (parallel ? 1 : node["Actual Loops"]);
    const cost: NodeCost = { label: label(node), depth, totalMs: total, selfMs: total };
    out.push(cost);
    for (const child of node.Plans ?? []) {
      const childTotal = visit(child, depth + 1, inParallel);
      const cte = child["Subplan Name"]?.match(/^CTE (.+)$/)?.[1];
      if (cte) cteTotals.set(cte, childTotal);
      else cost.selfMs -= childTotal;
    }
    const scanned = node["Node Type"] === "CTE Scan" ? node["CTE Name"] : undefined;
    if (scanned && (cteDrivers.get(scanned)?.totalMs ?? -1) < total) cteDrivers.set(scanned, cost);
    return total;
  };
  visit(root, 0, false);
  for (const [cte, driver] of cteDrivers) driver.selfMs = Math.max(0, driver.selfMs - (cteTotals.get(cte) ?? 0));
  return out;
}
