import { describe, expect, it } from "vitest";
import { type PlanNode, planCosts } from "./plan-costs";

const node = (type: string, ms: number, extra: Partial<PlanNode> = {}, plans: PlanNode[] = []): PlanNode => ({
  "Node Type": type, "Actual Total Time": ms, "Actual Loops": 1, "Actual Rows": 1, ...extra, ...(plans.length > 0 && { Plans: plans }),
});

describe("planCosts", () => {
  it("self time is the node's minus its children's; loops multiply outside a Gather, not under it", () => {
    const plan = node("Aggregate", 900, { Strategy: "Hashed" }, [
      node("Gather", 700, { "Workers Launched": 2 }, [node("Seq Scan", 500, { "Relation Name": "Feedback", "Actual Loops": 3 })]),
      node("Index Scan", 0.1, { "Relation Name": "Project", "Actual Loops": 100 }),
    ]);
    expect(planCosts(plan).map(({ label, selfMs }) => [label, Math.round(selfMs)])).toEqual([
      ["HashAggregate", 190],
      ["Gather (2 workers)", 200],
      ["Seq Scan on Feedback", 500],
      ["Index Scan on Project", 10],
    ]);
  });

  it("a CTE's work is counted in its own nodes, not again in the scan that first read it", () => {
    const plan = node("Append", 1000, {}, [
      node("HashAggregate", 600, { "Subplan Name": "CTE cells", "Parent Relationship": "InitPlan" }, [node("Seq Scan", 450, { "Relation Name": "Feedback" })]),
      node("Subquery Scan", 650, { Alias: "totals" }, [node("CTE Scan", 640, { "CTE Name": "cells" })]),
      node("CTE Scan", 5, { "CTE Name": "cells" }),
    ]);
    const self = Object.fromEntries(planCosts(plan).map((c) => [c.label, Math.round(c.selfMs)]));
    // The first scan computed the CTE: its 640 ms less the CTE's 600.
    expect(planCosts(plan).filter((c) => c.label === "CTE Scan of cells").map((c) => Math.round(c.selfMs))).toEqual([40, 5]);
    expect(self["[CTE cells] HashAggregate"]).toBe(150);
    expect(self["Append"]).toBe(1000 - 650 - 5);
  });
});
