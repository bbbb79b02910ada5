import { invalid } from "@/lib/contract/errors";
import { getDb } from "@/lib/db/client";
import type { CreateQueueBody } from "./queue-schemas";

// What a queue's settings name, resolved before it is written: each spec by name to its current
// live version (the queue pins it), each assigned user by username to a user of the team.

export interface QueueSpecRow {
  specId: string;
  position: number;
  required: boolean;
}

export async function resolveQueueSpecs(projectId: string, project: string, specs: CreateQueueBody["specs"]): Promise<QueueSpecRow[]> {
  const versions = await getDb().annotationSpec.findMany({
    where: { projectId, name: { in: specs.map((s) => s.name) }, deletedAt: null },
    orderBy: { version: "desc" },
    select: { id: true, name: true },
  });
  return specs.map((spec, position) => {
    const current = versions.find((v) => v.name === spec.name);
    if (!current) throw invalid(["body", "specs", String(position), "name"], `no annotation spec '${spec.name}' in project '${project}'`);
    return { specId: current.id, position, required: spec.required };
  });
}

/** The users' ids, in order; each must belong to the team (any role). */
export async function resolveAnnotators(teamId: string, team: string, usernames: string[]): Promise<string[]> {
  const members = await getDb().membership.findMany({
    where: { teamId, user: { username: { in: usernames } } },
    select: { userId: true, user: { select: { username: true } } },
  });
  return usernames.map((username, i) => {
    const member = members.find((m) => m.user.username === username);
    if (!member) throw invalid(["body", "annotators", String(i)], `'${username}' is not a user of team '${team}'`);
    return member.userId;
  });
}
