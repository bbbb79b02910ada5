// Validates trajectory groups that did not come through the HTTP layer's own schema check (a worker
// reading a stored job). A problem inside a trajectory becomes a TrajectoryError naming group,
// trajectory and position; one above it (e.g. a group without `trajectories`) a 422 issue.
import { z } from "zod";
import { invalid } from "@/lib/contract/errors";
import { TrajectoryError } from "../trajectory-error";
import { trajectoryGroupSchema, type TrajectoryGroup } from "./schemas";

export function parseTrajectoryGroups(input: unknown): TrajectoryGroup[] {
  const parsed = z.array(trajectoryGroupSchema).safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const [group, , trajectory, ...rest] = issue.path;
  if (typeof group !== "number" || typeof trajectory !== "number") {
    throw invalid(["body", "trajectory_groups", ...issue.path.map(String)], issue.message);
  }
  const position = rest.map((key) => (typeof key === "number" ? `[${key}]` : `.${String(key)}`)).join("").replace(/^\./, "");
  throw new TrajectoryError({ group, trajectory }, position, issue.message);
}
