import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { checkpointFeedbackSchema } from "@/lib/training/models/checkpoint-feedback-schema";
import { api, json } from "./http";
import { post } from "./feedback-fixtures";
import { queueWorld, recordCall, type QueueWorld } from "./queues-fixtures";
import type { TestUser } from "./factories";

// GET /v1/preview/models/{model_id}/feedback-by-checkpoint: the calls each checkpoint served and
// their feedback, per step — thumbs, feedback counts, numeric annotation means — in the model's team.

let w: QueueWorld;
let modelId: string;
let scoreRef: string;

const get = (user: TestUser, id = modelId) => json(api("GET", `/v1/preview/models/${id}/feedback-by-checkpoint`, { bearer: user.key }));
const ref = (project: string, callId: string) => `svc:///${w.team.name}/${project}/call/${callId}`;
const react = (project: string, callId: string, emoji: string) =>
  post("/feedback/create", { project_id: `${w.team.name}/${project}`, svc_ref: ref(project, callId), feedback_type: "wandb.reaction.1", payload: { emoji } }, w.team.member);
const score = (callId: string, value: number, as = w.team.member) =>
  post("/feedback/create", { project_id: w.project, svc_ref: ref("judging", callId), feedback_type: "wandb.annotation.score", annotation_ref: scoreRef, payload: { value } }, as);

beforeAll(async () => {
  w = await queueWorld(0);
  const model = await getDb().model.create({ data: { projectId: w.projectId, name: "judged", baseModel: "anneal/tiny-chat", currentStep: 3 } });
  modelId = model.id;
  for (const step of [1, 2, 3]) await getDb().checkpoint.create({ data: { modelId, step, file: `${modelId}/step-${step}.gguf` } });
  const spec = await json(api("GET", `/v1/teams/${w.team.name}/projects/judging/annotation-specs/score`, { bearer: w.team.member.key }));
  scoreRef = spec.body.ref;

  const served = (step: number, projectId = w.projectId) => recordCall(projectId, "4", { model: `${w.team.name}/judging/judged:step${step}`, trained: { modelId, step } });
  const base = await served(0);
  const [a, b] = [await served(1), await served(1)];
  const [c, d, e] = [await served(2), await served(2), await served(2)];
  // Another project of the team serves step 2 too; its feedback is its own project's.
  const other = await getDb().project.create({ data: { teamId: w.team.id, name: "elsewhere" } });
  const f = await served(2, other.id);

  for (const [project, call, emoji] of [["judging", base, "👎"], ["judging", a, "👍"], ["judging", a, "👍🏽"], ["judging", b, "👎🏿"], ["judging", c, "👍"], ["elsewhere", f, "👍"], ["judging", d, "🎉"]] as const) {
    expect((await react(project, call, emoji)).status).toBe(200);
  }
  for (const [call, value, as] of [[a, 2, w.team.member], [c, 4, w.team.member], [c, 5, w.team.annotator], [d, 3, w.team.member]] as const) expect((await score(call, value, as)).status).toBe(200);
  expect((await post("/feedback/create", { project_id: w.project, svc_ref: ref("judging", e), feedback_type: "wandb.note.1", payload: { note: "too long" } }, w.team.member)).status).toBe(200);

  // Neither a call of another model nor a base model's call counts; nor feedback on an unrecorded call.
  const unrelated = await recordCall(w.projectId, "4");
  expect((await react("judging", unrelated, "👍")).status).toBe(200);
  expect((await react("judging", randomUUID(), "👍")).status).toBe(200);
  // A deleted checkpoint's calls stay on the page.
  await getDb().checkpoint.delete({ where: { modelId_step: { modelId, step: 1 } } });
});

describe("GET /v1/preview/models/{model_id}/feedback-by-checkpoint", () => {
  it("gives each step's calls, feedback, thumbs and numeric annotation means side by side", async () => {
    const response = await get(w.team.member);
    expect(response.status).toBe(200);
    const name = `${w.team.name}/judging/judged`;
    const row = (step: number, exists: boolean, rest: Record<string, unknown>) => ({
      step, served_as: `${name}:step${step}`, checkpoint_exists: exists, calls: 0, judged_calls: 0, feedback: 0, thumbs_up: 0, thumbs_down: 0, thumbs_up_ratio: null, annotations: [], ...rest,
    });
    expect(checkpointFeedbackSchema.parse(response.body)).toEqual({
      model_id: modelId,
      data: [
        row(0, false, { calls: 1, judged_calls: 1, feedback: 1, thumbs_down: 1, thumbs_up_ratio: 0 }),
        row(1, false, { calls: 2, judged_calls: 2, feedback: 4, thumbs_up: 2, thumbs_down: 1, thumbs_up_ratio: 2 / 3, annotations: [{ spec: "score", mean: 2, count: 1 }] }),
        row(2, true, { calls: 4, judged_calls: 4, feedback: 7, thumbs_up: 2, thumbs_up_ratio: 1, annotations: [{ spec: "score", mean: 4, count: 3 }] }),
        row(3, true, {}),
      ],
    });
  });

  it("is a 404 for another team's model and an unknown one, a 403 for an annotator, a 422 for an id that is no UUID", async () => {
    const outsider = await queueWorld(0);
    expect(await get(outsider.team.admin)).toEqual({ status: 404, body: { detail: `Model '${modelId}' not found.` } });
    expect((await get(w.team.member, randomUUID())).status).toBe(404);
    expect((await get(w.team.annotator)).status).toBe(403);
    expect((await get(w.team.member, "nope")).status).toBe(422);
  });
});
