import { randomUUID } from "node:crypto";
import { api, json } from "./http";
import { createTestTeam, type TestUser } from "./factories";

// A team with a project to judge in, and requests to the feedback routes as one of its users
// (Basic `api:<key>`, as W&B Weave's clients send it).

export async function feedbackWorld() {
  const team = await createTestTeam();
  const project = `${team.name}/judging`;
  // A member's first write creates the project (annotators may not create one).
  return { team, project, callRef: (id: string = randomUUID()) => `svc:///${project}/call/${id}` };
}

export const post = <T = any>(path: string, body: unknown, as: TestUser) => json<T>(api("POST", path, { body, basic: ["api", as.key] }));

/** A feedback row as /feedback/query returns it, by id. */
export async function readFeedback(project: string, id: string, as: TestUser): Promise<Record<string, unknown> | undefined> {
  const { body } = await post("/feedback/query", { project_id: project, query: { $expr: { $eq: [{ $getField: "id" }, { $literal: id }] } } }, as);
  return body.result[0];
}
