// The people and recorded calls of a benchmark's team, written straight into the database the
// benchmark's server uses (recording thousands of completions would measure the engine): users with
// an API key each, a team of an owner (admin) and annotators, and a project of answered calls.
import { randomBytes } from "node:crypto";
import { createApiKey } from "@/lib/auth/api-keys";
import type { Principal } from "@/lib/auth/principal";
import { createUser } from "@/lib/auth/users";
import { getDb } from "@/lib/db/client";

export interface Person {
  username: string;
  userId: string;
  key: string;
}

export async function benchPerson(username: string, membership?: { teamId: string; role: "annotator" }): Promise<Person> {
  const { user } = await createUser({ username, email: `${username}@bench.test`, password: randomBytes(12).toString("hex") }, membership);
  const principal: Principal = { user: { id: user.id, username, email: user.email, isAdmin: false }, via: "password" };
  const { key } = await createApiKey(principal, { name: "bench" });
  return { username, userId: user.id, key };
}

/** An owner (admin of team `team`), `annotators` annotators in it, and its empty project `project`. */
export async function benchTeam(team: string, project: string, annotators: number): Promise<{ owner: Person; annotators: Person[]; projectId: string }> {
  const owner = await benchPerson(`${team}-owner`);
  const db = getDb();
  const { id: teamId } = await db.team.create({ data: { name: team, memberships: { create: { userId: owner.userId, role: "admin" } } } });
  const people: Person[] = [];
  for (let i = 0; i < annotators; i++) people.push(await benchPerson(`${team}-annotator-${i + 1}`, { teamId, role: "annotator" }));
  const { id: projectId } = await db.project.create({ data: { teamId, name: project } });
  return { owner, annotators: people, projectId };
}

/** `count` answered calls in the project, as the recorder writes them: a conversation and its answer each, one statement. */
export async function seedCalls(projectId: string, count: number): Promise<void> {
  await getDb().$executeRawUnsafe(
    `INSERT INTO "Call" (id, "projectId", "traceId", "opName", "requestId", model, "baseModel", inputs, output, "promptTokens", "completionTokens", status, "startedAt", "endedAt", "latencyMs")
     SELECT gen_random_uuid(), $1::uuid, gen_random_uuid(), 'chat.completions', 'bench-' || n, 'anneal/tiny-chat', 'anneal/tiny-chat',
            jsonb_build_object('messages', jsonb_build_array(
              jsonb_build_object('role', 'system', 'content', 'You are a careful assistant.'),
              jsonb_build_object('role', 'user', 'content', 'What is ' || n || ' + ' || (n * 7 % 13) || '? Explain briefly.'))),
            jsonb_build_object('choices', jsonb_build_array(jsonb_build_object('index', 0, 'finish_reason', 'stop',
              'message', jsonb_build_object('role', 'assistant', 'content', 'It is ' || (n + n * 7 % 13) || ', because adding the two gives that.')))),
            24, 16, 'success', now() - make_interval(secs => $2 - n), now() - make_interval(secs => $2 - n) + interval '120 ms', 120
       FROM generate_series(1, $2) AS n`,
    projectId, count,
  );
}
