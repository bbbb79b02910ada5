import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { rlGroupsSchema, sftDatasetSchema } from "@/lib/training/from-judgement/schemas";
import { jobSchema } from "@/lib/training/jobs/schemas";
import { useTempDataDir } from "./data-dir";
import { api, json } from "./http";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";
import { call, createQueue, queueWorld, recordCall, type QueueWorld } from "./queues-fixtures";
import type { TestUser } from "./factories";

// Training from human judgement over the real routes: an SFT dataset file from a queue's or a
// filter's annotations (rule, corrected replies, several annotators), RL groups from scores (groups
// of one left out with a warning), tenancy, and the lineage a job keeps.

let fixture: InferenceFixture;
let w: QueueWorld;
let modelId: string;
useTempDataDir("judgement");

beforeAll(async () => {
  fixture = installInferenceModels();
  w = await queueWorld(0);
  const specs = `/v1/teams/${w.team.name}/projects/judging/annotation-specs`;
  await json(api("POST", specs, { body: { name: "tone", type: "categorical", options: ["calm", "warm", "rude"] }, bearer: w.team.admin.key }));
  const model = await json(api("POST", "/v1/preview/models", { bearer: w.team.member.key, body: { entity: w.team.name, project: "judging", name: "judged", base_model: "test/tiny" } }));
  expect(model.status, JSON.stringify(model.body)).toBe(200);
  modelId = model.body.id;
});
afterAll(() => fixture.remove());

const post = (user: TestUser, path: string, body: unknown) => json(api("POST", path, { bearer: user.key, body }));
const sft = (body: unknown, user = w.team.member) => post(user, "/v1/preview/judgement/sft-dataset", body);
const rlGroups = (body: unknown, user = w.team.member) => post(user, "/v1/preview/judgement/rl-groups", body);

/** Submits `values` on a queue item as `user` (the queue must list them as annotators or they must be a member). */
async function annotate(queueId: string, itemId: string, user: TestUser, values: Record<string, unknown>) {
  const res = await call(user, "POST", `/annotation_queues/${queueId}/items/${itemId}/submit`, { values });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** An annotation through /feedback/create, on a call or (with `choice`) one of its choices. */
async function feedback(callId: string, spec: string, value: unknown, user: TestUser = w.team.member, choice?: number) {
  const specRef = (await json(api("GET", `/v1/teams/${w.team.name}/projects/judging/annotation-specs/${spec}`, { bearer: user.key }))).body.ref;
  const ref = `svc:///${w.project}/call/${callId}${choice === undefined ? "" : `/choice/${choice}`}`;
  const res = await json(api("POST", "/feedback/create", {
    basic: ["api", user.key],
    body: { project_id: w.project, weave_ref: ref, feedback_type: `wandb.annotation.${spec}`, payload: { value }, annotation_ref: specRef },
  }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const fileLines = async (fileId: string) => {
  const text = await (await api("GET", `/v1/files/${fileId}/content`, { bearer: w.team.member.key })).text();
  return text.trim().split("\n").map((line) => JSON.parse(line));
};

describe("SFT dataset from judgement", () => {
  it("uses the calls that pass the rule and the corrected ones, says why the others were left out, and the job keeps the lineage", async () => {
    const ids = [await recordCall(w.projectId, "four"), await recordCall(w.projectId, "five"), await recordCall(w.projectId, "six"), await recordCall(w.projectId, "seven"), await recordCall(w.projectId, "eight")];
    const { queue, items } = await createQueue(w, { annotations_per_item: 2, annotators: [w.team.annotator.username, w.team.member.username] }, ids);
    // 0: scores 5 and 3 → mean 4 passes ≥ 4; its "correction" is the model's reply untouched, so none is stored.
    await annotate(queue.id, items[0].id, w.team.annotator, { score: 5, fix: "four" });
    await annotate(queue.id, items[0].id, w.team.member, { score: 3 });
    // 1: fails the rule, but a person corrected it: trained on the correction.
    await annotate(queue.id, items[1].id, w.team.annotator, { score: 1, fix: "the right answer" });
    // 2: 4 then edited to 2 (Back): only the annotator's latest counts → fails.
    await annotate(queue.id, items[2].id, w.team.annotator, { score: 4 });
    await annotate(queue.id, items[2].id, w.team.annotator, { score: 2 });
    // 3: not annotated. 4: annotated outside the queue only, which a queue source does not read.
    await feedback(ids[4], "score", 5);

    const built = await sft({ queue_id: queue.id, rule: { spec: "score", op: ">=", value: 4 }, corrected_reply_spec: "fix" });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    expect(sftDatasetSchema.parse(built.body)).toEqual(built.body);
    expect(built.body).toMatchObject({
      matched: 5, used: 2, corrected: 1,
      left_out: [
        { reason: "failed_rule", count: 1, call_ids: [ids[2]] },
        { reason: "not_annotated", count: 2, call_ids: [ids[3], ids[4]] },
      ],
      file: { object: "file", purpose: "fine-tune", team: w.team.name, filename: expect.stringMatching(/^judged-review-.*\.jsonl$/) },
    });
    expect(await fileLines(built.body.file.id)).toEqual([
      { messages: [{ role: "user", content: "What is 2+2?" }, { role: "assistant", content: "four" }] },
      { messages: [{ role: "user", content: "What is 2+2?" }, { role: "assistant", content: "the right answer" }] },
    ]);
    const source = built.body.source;
    expect(source).toMatchObject({
      kind: "sft_from_judgement", project: w.project, queue: { id: queue.id, name: "review" }, accepted_only: false, filter: null,
      rule: { spec: "score", type: "numeric", op: ">=", value: 4, text: "score ≥ 4" }, corrected_reply_spec: "fix", reward_spec: null,
      feedback: { count: 4, types: ["wandb.annotation.score", "wandb.annotation.fix"] },
      counts: { matched: 5, used: 2, corrected: 1 },
    });
    const used = await getDb().feedback.findMany({ where: { id: { in: source.feedback.ids_sample } }, select: { svcRef: true, queueId: true } });
    expect(used.map((f) => f.svcRef.split("/").at(-1)).sort()).toEqual([ids[0], ids[0], ids[1], ids[1]].sort());
    expect(used.every((f) => f.queueId === queue.id)).toBe(true);

    const job = await post(w.team.member, "/v1/preview/sft-training-jobs", { model_id: modelId, training_data_url: built.body.file.id });
    expect(job.status, JSON.stringify(job.body)).toBe(200);
    expect(jobSchema.parse(job.body).source).toEqual(source);
    expect((await json(api("GET", `/v1/preview/training-jobs/${job.body.id}`, { bearer: w.team.member.key }))).body.source).toEqual(source);
    expect(job.body.input_summary).toEqual({ examples: 2 });
    // Inline data (or any other file) has no lineage.
    const inline = await post(w.team.member, "/v1/preview/sft-training-jobs", { model_id: modelId, training_data: [{ messages: [{ role: "user", content: "a" }, { role: "assistant", content: "b" }] }] });
    expect(inline.body.source).toBeNull();
    await getDb().trainingJob.updateMany({ where: { modelId }, data: { status: "cancelled" } });
  });

  it("with only a corrected-reply spec, uses exactly the corrected calls; with none used, writes no file", async () => {
    const ids = [await recordCall(w.projectId, "a"), await recordCall(w.projectId, "b")];
    const { queue, items } = await createQueue(w, {}, ids);
    await annotate(queue.id, items[0].id, w.team.annotator, { score: 3, fix: "A!" });
    await annotate(queue.id, items[1].id, w.team.annotator, { score: 3, fix: "b" });
    const built = await sft({ queue_id: queue.id, corrected_reply_spec: "fix" });
    expect(built.body).toMatchObject({ matched: 2, used: 1, corrected: 1, left_out: [{ reason: "not_corrected", call_ids: [ids[1]] }] });
    expect((await fileLines(built.body.file.id))[0].messages[1]).toEqual({ role: "assistant", content: "A!" });

    const none = await sft({ queue_id: queue.id, rule: { spec: "score", op: ">", value: 3 } });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ file: null, used: 0, left_out: [{ reason: "failed_rule", count: 2 }] });
  });

  it("a corrected reply equal to the model's reply, whitespace aside, is none: a submission leaves it out, /feedback/create refuses it, and one stored before is not trained as one", async () => {
    const ids = [await recordCall(w.projectId, "nine"), await recordCall(w.projectId, "ten")];
    const { queue, items } = await createQueue(w, {}, ids);
    await annotate(queue.id, items[0].id, w.team.annotator, { score: 2, fix: " nine\n" });
    const stored = await getDb().feedback.findMany({ where: { queueId: queue.id }, select: { feedbackType: true } });
    expect(stored.map((row) => row.feedbackType)).toEqual(["wandb.annotation.score"]);

    const specRef = (await json(api("GET", `/v1/teams/${w.team.name}/projects/judging/annotation-specs/fix`, { bearer: w.team.member.key }))).body.ref;
    const create = (value: string) =>
      json(api("POST", "/feedback/create", {
        basic: ["api", w.team.member.key],
        body: { project_id: w.project, weave_ref: `svc:///${w.project}/call/${ids[1]}`, feedback_type: "wandb.annotation.fix", payload: { value }, annotation_ref: specRef },
      }));
    const refused = await create("ten \n");
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toEqual([{ loc: ["body", "payload", "value"], msg: expect.stringContaining("is the model's reply (whitespace aside), so it corrects nothing"), type: "value_error" }]);
    expect((await create("eleven")).status).toBe(200);

    // A row stored before writes left unchanged replies out: one on the second call, made the model's reply again.
    await annotate(queue.id, items[1].id, w.team.annotator, { score: 2, fix: "a real fix" });
    await getDb().feedback.updateMany({ where: { queueId: queue.id, feedbackType: "wandb.annotation.fix" }, data: { payload: { value: "ten  " } } });
    const built = await sft({ queue_id: queue.id, corrected_reply_spec: "fix" });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    expect(built.body).toMatchObject({ matched: 2, used: 0, corrected: 0, file: null, left_out: [{ reason: "not_corrected", call_ids: ids }] });
  });

  it("reads a call-log filter's calls with any annotation on them: boolean majority, categorical options, ties left out", async () => {
    const model = `judge-${randomUUID().slice(0, 8)}`;
    const ids = [await recordCall(w.projectId, "x", { model }), await recordCall(w.projectId, "y", { model }), await recordCall(w.projectId, "z", { model })];
    await recordCall(w.projectId, "other model"); // outside the filter
    const [admin, member, annotator] = [w.team.admin, w.team.member, w.team.annotator];
    await feedback(ids[0], "ok", true, admin);
    await feedback(ids[0], "ok", true, member);
    await feedback(ids[0], "ok", false, annotator);
    await feedback(ids[1], "ok", true, admin);
    await feedback(ids[1], "ok", false, member);
    await feedback(ids[2], "ok", false, admin);
    const filter = { project: w.project, filter: { model } };
    const booleans = await sft({ ...filter, rule: { spec: "ok", value: true } });
    expect(booleans.body).toMatchObject({
      matched: 3, used: 1,
      left_out: [{ reason: "tie", call_ids: [ids[1]] }, { reason: "failed_rule", call_ids: [ids[2]] }],
      source: { queue: null, filter: { model }, rule: { text: "ok = true" } },
    });

    await feedback(ids[0], "tone", "calm");
    await feedback(ids[1], "tone", "rude");
    const categorical = await sft({ ...filter, rule: { spec: "tone", in: ["calm", "warm"] } });
    expect(categorical.body).toMatchObject({ used: 1, left_out: [{ reason: "failed_rule", call_ids: [ids[1]] }, { reason: "not_annotated", call_ids: [ids[2]] }] });
    const below = await sft({ ...filter, rule: { spec: "score", op: "<", value: 3 } });
    expect(below.body).toMatchObject({ used: 0, left_out: [{ reason: "not_annotated", count: 3 }] });
  });

  it("checks the rule against its spec (422 at the field)", async () => {
    const base = { project: w.project };
    const cases: [unknown, string[]][] = [
      [{ ...base, rule: { spec: "nope", op: ">=", value: 1 } }, ["body", "rule", "spec"]],
      [{ ...base, rule: { spec: "fix", op: ">=", value: 1 } }, ["body", "rule", "spec"]],
      [{ ...base, rule: { spec: "score", value: 1 } }, ["body", "rule", "op"]],
      [{ ...base, rule: { spec: "score", op: ">=", value: true } }, ["body", "rule", "value"]],
      [{ ...base, rule: { spec: "ok", value: 2 } }, ["body", "rule", "value"]],
      [{ ...base, rule: { spec: "tone", in: ["calm", "loud"] } }, ["body", "rule", "in", "1"]],
      [{ ...base, corrected_reply_spec: "score" }, ["body", "corrected_reply_spec"]],
      [{ ...base }, ["body", "rule"]],
      [{ corrected_reply_spec: "fix" }, ["body", "queue_id"]],
      [{ ...base, queue_id: randomUUID(), corrected_reply_spec: "fix" }, ["body", "queue_id"]],
    ];
    for (const [body, loc] of cases) {
      const res = await sft(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail[0].loc, JSON.stringify(res.body)).toEqual(loc);
    }
  });

  it("reaches only the caller's queues and projects: another team's is a 404, an annotator's request a 403", async () => {
    const { queue } = await createQueue(w, {}, [await recordCall(w.projectId)]);
    const other = await queueWorld(0);
    const body = { queue_id: queue.id, corrected_reply_spec: "fix" };
    expect((await sft(body, other.team.member)).status).toBe(404);
    expect((await sft({ project: w.project, corrected_reply_spec: "fix" }, other.team.member)).status).toBe(404);
    expect((await rlGroups({ queue_id: queue.id, reward_spec: "score" }, other.team.admin)).status).toBe(404);
    expect((await sft(body, w.team.annotator)).status).toBe(403);
    expect((await sft({ queue_id: randomUUID(), corrected_reply_spec: "fix" })).status).toBe(404);
  });
});

/** A recorded call with `n` choices, each with logprobs in token_id form (what RL trains), and
 *  `request`'s fields besides. */
async function recordChoices(prompt: string, answers: string[], request: Record<string, unknown> = {}): Promise<string> {
  const row = await getDb().call.create({
    data: {
      projectId: w.projectId, traceId: randomUUID(), opName: "chat.completions", requestId: randomUUID(), model: "anneal/tiny-chat", baseModel: "anneal/tiny-chat",
      inputs: { messages: [{ role: "user", content: prompt }], n: answers.length, logprobs: true, ...request },
      output: {
        choices: answers.map((content, index) => ({
          index, finish_reason: "stop", message: { role: "assistant", content },
          logprobs: { content: [...content].map((ch) => ({ token: `token_id:${ch.charCodeAt(0)}`, logprob: -0.5 })) },
        })),
      },
      status: "success", startedAt: new Date(), endedAt: new Date(),
    },
  });
  return row.id;
}

describe("RL from human scores", () => {
  it("groups a call's choices and calls with the same prompt, lists groups of one with a warning, and the job keeps the lineage", async () => {
    const tag = randomUUID().slice(0, 8);
    const samePrompt = [await recordChoices(`same ${tag}`, ["a"]), await recordChoices(`same ${tag}`, ["b"])];
    const alone = await recordChoices(`alone ${tag}`, ["c"]);
    const choices = await recordChoices(`choices ${tag}`, ["d", "e"]);
    const wholeCall = await recordChoices(`whole ${tag}`, ["f", "g"]);
    const ids = [...samePrompt, alone, choices, wholeCall];
    const { queue, items } = await createQueue(w, { specs: [{ name: "score" }, { name: "ok", required: false }] }, ids);
    await annotate(queue.id, items[0].id, w.team.annotator, { score: 5 });
    await annotate(queue.id, items[1].id, w.team.annotator, { score: 1 });
    await annotate(queue.id, items[2].id, w.team.annotator, { score: 3 });
    await annotate(queue.id, items[4].id, w.team.annotator, { score: 4 }); // the call as a whole: which choice?
    // Per-choice scores are the call's ref plus /choice/<index>, given in the queue.
    const specRef = queue.specs[0].ref;
    for (const [choice, value] of [[0, 2], [1, 4]]) {
      const res = await json(api("POST", "/feedback/create", {
        basic: ["api", w.team.member.key],
        body: { project_id: w.project, weave_ref: `svc:///${w.project}/call/${choices}/choice/${choice}`, feedback_type: "wandb.annotation.score", payload: { value }, annotation_ref: specRef, queue_id: queue.id },
      }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }

    const preview = await rlGroups({ queue_id: queue.id, reward_spec: "score" });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(rlGroupsSchema.parse(preview.body)).toEqual(preview.body);
    expect(preview.body).toEqual({
      matched: 5,
      trajectories: 4,
      groups: [
        { kind: "prompt", prompt: `same ${tag}`, trajectories: [{ call_id: samePrompt[0], choice_index: 0, reward: 5 }, { call_id: samePrompt[1], choice_index: 0, reward: 1 }], reward_mean: 3, reward_spread: 4 },
        { kind: "choices", prompt: `choices ${tag}`, trajectories: [{ call_id: choices, choice_index: 0, reward: 2 }, { call_id: choices, choice_index: 1, reward: 4 }], reward_mean: 3, reward_spread: 2 },
      ],
      singles: [{ kind: "prompt", prompt: `alone ${tag}`, trajectories: [{ call_id: alone, choice_index: 0, reward: 3 }], reward_mean: 3, reward_spread: 0 }],
      warnings: [expect.stringMatching(/^1 group of one trajectory left out/)],
      left_out: [
        { reason: "choices_not_scored", message: expect.any(String), count: 1, call_ids: [wholeCall] },
        { reason: "single_trajectory", message: expect.any(String), count: 1, call_ids: [alone] },
      ],
    });

    const job = await post(w.team.member, "/v1/preview/judgement/rl-jobs", { queue_id: queue.id, reward_spec: "score", model_id: modelId, experimental_config: { learning_rate: 1e-5 } });
    expect(job.status, JSON.stringify(job.body)).toBe(200);
    const dto = jobSchema.parse(job.body);
    expect(dto).toMatchObject({ kind: "rl", status: "queued", input_summary: { trajectory_groups: 2, trajectories: 4 }, config: { learning_rate: 1e-5 } });
    expect(dto.source).toMatchObject({
      kind: "rl_from_judgement", queue: { id: queue.id }, reward_spec: "score", rule: null,
      feedback: { count: 4, types: ["wandb.annotation.score"] },
      counts: { matched: 5, groups: 2, trajectories: 4, singles: 1 },
      left_out: preview.body.left_out,
    });
    // The trajectories are the recorded Choices, logprobs included, after the request's messages.
    const stored = JSON.parse((await getDb().trainingJob.findUniqueOrThrow({ where: { id: dto.id } })).input);
    expect(stored.trajectory_groups[1].trajectories[1]).toMatchObject({
      reward: 4,
      messages_and_choices: [{ role: "user", content: `choices ${tag}` }, { index: 1, message: { content: "e" }, logprobs: { content: [{ token: "token_id:101", logprob: -0.5 }] } }],
    });
    await getDb().trainingJob.update({ where: { id: dto.id }, data: { status: "cancelled" } });
  });

  it("a call's chat_template_kwargs (its own template and documents folded in) go with its trajectories and examples; calls rendered otherwise are other groups", async () => {
    const tag = randomUUID().slice(0, 8);
    const thinkingOff = { chat_template_kwargs: { enable_thinking: false } };
    const ownTemplate = { chat_template_kwargs: { greeting: "hi" }, chat_template: "{{ greeting }}{{ messages[0].content }}", documents: [{ title: "d" }] };
    const ids = [
      await recordChoices(`k ${tag}`, ["a"], thinkingOff),
      await recordChoices(`k ${tag}`, ["b"], thinkingOff),
      await recordChoices(`k ${tag}`, ["c"], ownTemplate),
      await recordChoices(`k ${tag}`, ["d"], { chat_template_kwargs: {} }),
    ];
    const { queue, items } = await createQueue(w, { specs: [{ name: "score" }] }, ids);
    for (const [k, score] of [5, 1, 3, 2].entries()) await annotate(queue.id, items[k].id, w.team.annotator, { score });

    const preview = await rlGroups({ queue_id: queue.id, reward_spec: "score" });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.groups.map((g: { trajectories: { call_id: string }[] }) => g.trajectories.map((t) => t.call_id))).toEqual([ids.slice(0, 2)]);
    expect(preview.body.singles.map((g: { trajectories: { call_id: string }[] }) => g.trajectories[0].call_id)).toEqual(ids.slice(2));
    const job = await post(w.team.member, "/v1/preview/judgement/rl-jobs", { queue_id: queue.id, reward_spec: "score", model_id: modelId });
    expect(job.status, JSON.stringify(job.body)).toBe(200);
    const stored = JSON.parse((await getDb().trainingJob.findUniqueOrThrow({ where: { id: job.body.id } })).input);
    expect(stored.trajectory_groups[0].trajectories.map((t: { chat_template_kwargs: unknown }) => t.chat_template_kwargs)).toEqual([{ enable_thinking: false }, { enable_thinking: false }]);
    await getDb().trainingJob.update({ where: { id: job.body.id }, data: { status: "cancelled" } });

    const built = await sft({ queue_id: queue.id, rule: { spec: "score", op: ">=", value: 1 } });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    const user = { role: "user", content: `k ${tag}` };
    expect(await fileLines(built.body.file.id)).toEqual([
      { messages: [user, { role: "assistant", content: "a" }], chat_template_kwargs: { enable_thinking: false } },
      { messages: [user, { role: "assistant", content: "b" }], chat_template_kwargs: { enable_thinking: false } },
      { messages: [user, { role: "assistant", content: "c" }], chat_template_kwargs: { greeting: "hi", chat_template: ownTemplate.chat_template, documents: ownTemplate.documents } },
      { messages: [user, { role: "assistant", content: "d" }] },
    ]);
  });

  it("boolean rewards are 1 and 0; nothing to compare is a 400 that says why; a text spec is a 422", async () => {
    const tag = randomUUID().slice(0, 8);
    const ids = [await recordChoices(`b ${tag}`, ["y"]), await recordChoices(`b ${tag}`, ["n"]), await recordChoices(`lone ${tag}`, ["l"])];
    const { queue, items } = await createQueue(w, { specs: [{ name: "ok" }] }, ids);
    await annotate(queue.id, items[0].id, w.team.annotator, { ok: true });
    await annotate(queue.id, items[1].id, w.team.annotator, { ok: false });
    await annotate(queue.id, items[2].id, w.team.annotator, { ok: true });
    const preview = await rlGroups({ queue_id: queue.id, reward_spec: "ok" });
    expect(preview.body.groups[0].trajectories.map((t: { reward: number }) => t.reward)).toEqual([1, 0]);

    // Another queue of the same call reads only its own annotations.
    const lonely = await createQueue(w, { specs: [{ name: "ok" }] }, [ids[2]]);
    expect((await rlGroups({ queue_id: lonely.queue.id, reward_spec: "ok" })).body.left_out).toMatchObject([{ reason: "not_annotated", call_ids: [ids[2]] }]);
    await annotate(lonely.queue.id, lonely.items[0].id, w.team.annotator, { ok: true });
    const refused = await post(w.team.member, "/v1/preview/judgement/rl-jobs", { queue_id: lonely.queue.id, reward_spec: "ok", model_id: modelId });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/^No group of two or more scored trajectories among the 1 call: 1 call: its group has one trajectory/);
    expect((await rlGroups({ queue_id: queue.id, reward_spec: "fix" })).body.detail[0].loc).toEqual(["body", "reward_spec"]);
    expect((await rlGroups({ queue_id: queue.id, reward_spec: "tone" })).status).toBe(422);
  });
});
