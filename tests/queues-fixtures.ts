import { randomUUID } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { api, json } from "./http";
import { createTestTeam, type TestUser } from "./factories";

// A team with a project of recorded calls and annotation specs, and requests to the annotation
// queue routes as one of its users (Basic `api:<key>`, as W&B Weave's clients send it).

export type QueueTeam = Awaited<ReturnType<typeof createTestTeam>>;

type Method = "GET" | "POST" | "PATCH" | "DELETE";

/** A request as `user`; the response's status and JSON body. */
export const call = <T = any>(user: TestUser, method: Method, path: string, body?: unknown) => json<T>(api(method, path, { body, basic: ["api", user.key] }));

/** A recorded chat completion in the project (a row, as the call recorder writes it): one choice
 *  `answer`, or a choice per `answers` (a call made with n >= 2); `trained` as a trained model's checkpoint serves it. */
export async function recordCall(
  projectId: string,
  answer = "4",
  options: { model?: string; startedAt?: Date; answers?: string[]; trained?: { modelId: string; step: number } } = {},
): Promise<string> {
  const answers = options.answers ?? [answer];
  const row = await getDb().call.create({
    data: {
      projectId,
      traceId: randomUUID(),
      opName: "chat.completions",
      requestId: randomUUID(),
      model: options.model ?? "anneal/tiny-chat",
      baseModel: "anneal/tiny-chat",
      modelId: options.trained?.modelId,
      checkpointStep: options.trained?.step,
      inputs: { messages: [{ role: "user", content: "What is 2+2?" }], temperature: 0.5, metadata: { task: "sum" } },
      output: { choices: answers.map((content, index) => ({ index, message: { role: "assistant", content }, finish_reason: "stop" })) },
      status: "success",
      startedAt: options.startedAt ?? new Date(),
      endedAt: new Date(),
    },
  });
  return row.id;
}

/** A team, its project `judging` with calls, and specs `score` (numeric 1–5), `ok` (boolean), `fix` (corrected reply). */
export async function queueWorld(calls = 3) {
  const team = await createTestTeam();
  const project = `${team.name}/judging`;
  const { id: projectId } = await getDb().project.create({ data: { teamId: team.id, name: "judging" } });
  const specs = `/v1/teams/${team.name}/projects/judging/annotation-specs`;
  for (const spec of [
    { name: "score", type: "numeric", min: 1, max: 5, integer: true },
    { name: "ok", type: "boolean" },
    { name: "fix", type: "corrected_reply" },
  ]) {
    const created = await json(api("POST", specs, { body: spec, bearer: team.admin.key }));
    if (created.status !== 201) throw new Error(`spec ${spec.name}: ${JSON.stringify(created)}`);
  }
  const callIds: string[] = [];
  for (let i = 0; i < calls; i++) callIds.push(await recordCall(projectId, String(i)));
  return { team, project, projectId, callIds };
}

export type QueueWorld = Awaited<ReturnType<typeof queueWorld>>;

/** A queue of calls (default: the world's), created by the team's member; `settings` override the defaults. */
export async function createQueue(w: QueueWorld, settings: Record<string, unknown> = {}, callIds = w.callIds) {
  const created = await call(w.team.member, "POST", "/annotation_queues", {
    project: w.project,
    name: "review",
    instructions: "Score the answer.",
    specs: [{ name: "score" }, { name: "fix", required: false }],
    annotators: [w.team.annotator.username],
    ...settings,
  });
  if (created.status !== 201) throw new Error(`queue: ${JSON.stringify(created)}`);
  const queue = created.body;
  if (callIds.length > 0) {
    const added = await call(w.team.member, "POST", `/annotation_queues/${queue.id}/items`, { call_ids: callIds });
    if (added.status !== 200) throw new Error(`items: ${JSON.stringify(added)}`);
  }
  const items = await call(w.team.member, "GET", `/annotation_queues/${queue.id}/items?limit=100`);
  return { queue, items: items.body.data as { id: string; call_id: string }[] };
}
