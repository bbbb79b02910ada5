import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feedbackWorld, post } from "./feedback-fixtures";
import { serveApp } from "./http-server";

// W&B Weave's TypeScript SDK (npm `weave`), unchanged, against Anneal over HTTP: its generated
// trace-server client creates, replaces, queries and purges feedback, and its WeaveClient records a
// scorer's result (addScore) the way an imperative evaluation does.

type TraceServer = typeof import("../node_modules/weave/dist/generated/traceServerApi");
type Client = typeof import("../node_modules/weave/dist/weaveClient");

// The package exports only its entry point (which starts instrumentation hooks); these two modules
// are loaded from its files as they are.
const require = createRequire(import.meta.url);
const dist = path.dirname(require.resolve("weave"));
const { Api } = require(path.join(dist, "generated/traceServerApi.js")) as TraceServer;
const { WeaveClient } = require(path.join(dist, "weaveClient.js")) as Client;

let server: Awaited<ReturnType<typeof serveApp>>;
let w: Awaited<ReturnType<typeof feedbackWorld>>;
let traceServer: InstanceType<TraceServer["Api"]>;

beforeAll(async () => {
  server = await serveApp();
  w = await feedbackWorld();
  // As weave's init() builds it: Basic api:<key>.
  traceServer = new Api({
    baseUrl: server.url,
    baseApiParams: { headers: { Authorization: `Basic ${Buffer.from(`api:${w.team.annotator.key}`).toString("base64")}` } },
  });
});

afterAll(async () => {
  await server.close();
});

describe("W&B Weave's TypeScript SDK", () => {
  it("creates, replaces, queries and purges feedback through its generated client", async () => {
    const callId = randomUUID();
    const weaveRef = `weave:///${w.project}/call/${callId}`;
    // The project exists once a member wrote to it; the SDK below acts as an annotator.
    await post("/feedback/create", { project_id: w.project, weave_ref: weaveRef, feedback_type: "x.setup", payload: {} }, w.team.member);

    const down = await traceServer.feedback.feedbackCreateFeedbackCreatePost({ project_id: w.project, weave_ref: weaveRef, feedback_type: "wandb.reaction.1", payload: { emoji: "👎" } });
    expect(down.status).toBe(200);
    expect(down.data).toEqual({ id: expect.any(String), created_at: expect.any(String), wb_user_id: w.team.annotator.principal.user.id, payload: { emoji: "👎", alias: ":thumbs_down:", detoned: "👎", detoned_alias: ":thumbs_down:" } });

    const up = await traceServer.feedback.feedbackReplaceFeedbackReplacePost({
      project_id: w.project, weave_ref: weaveRef, feedback_type: "wandb.reaction.1", payload: { emoji: "👍" }, feedback_id: down.data.id,
    });
    expect(up.data.id).not.toBe(down.data.id);

    const reactions = await traceServer.feedback.feedbackQueryFeedbackQueryPost({
      project_id: w.project,
      query: { $expr: { $and: [{ $eq: [{ $getField: "weave_ref" }, { $literal: weaveRef }] }, { $eq: [{ $getField: "feedback_type" }, { $literal: "wandb.reaction.1" }] }] } },
      sort_by: [{ field: "created_at", direction: "desc" }],
      fields: ["id", "weave_ref", "payload.emoji", "wb_user_id"],
    });
    expect(reactions.data.result).toEqual([{ id: up.data.id, weave_ref: `svc:///${w.project}/call/${callId}`, "payload.emoji": "👍", wb_user_id: w.team.annotator.principal.user.id }]);

    const purged = await traceServer.feedback.feedbackPurgeFeedbackPurgePost({ project_id: w.project, query: { $expr: { $eq: [{ $getField: "id" }, { $literal: up.data.id }] } } });
    expect(purged.data).toEqual({});
    const left = await traceServer.feedback.feedbackQueryFeedbackQueryPost({ project_id: w.project, query: { $expr: { $eq: [{ $getField: "feedback_type" }, { $literal: "wandb.reaction.1" }] } } });
    expect(left.data.result).toEqual([]);
  });

  it("records a scorer's result with WeaveClient.addScore", async () => {
    const client = new WeaveClient(traceServer, null as never, w.project);
    const predictCall = randomUUID();
    const scorerCall = randomUUID();
    const id = await client.addScore(predictCall, scorerCall, `weave:///${w.project}/op/exact_match:Ab12cD`, { correct: true, score: 0.75 });
    const { data } = await traceServer.feedback.feedbackQueryFeedbackQueryPost({ project_id: w.project, query: { $expr: { $eq: [{ $getField: "id" }, { $literal: id }] } } });
    expect(data.result).toEqual([expect.objectContaining({
      feedback_type: "wandb.runnable.exact_match",
      weave_ref: `svc:///${w.project}/call/${predictCall}`,
      runnable_ref: `svc:///${w.project}/op/exact_match:Ab12cD`,
      call_ref: `svc:///${w.project}/call/${scorerCall}`,
      payload: { output: { correct: true, score: 0.75 } },
    })]);
  });

  it("gets the contract's errors as rejections it can read", async () => {
    const rejected = await traceServer.feedback
      .feedbackCreateFeedbackCreatePost({ project_id: w.project, weave_ref: `weave:///${w.project}/call/${randomUUID()}`, feedback_type: "wandb.note.1", payload: { note: "" } })
      .catch((error: { status: number; error: unknown }) => error);
    expect(rejected).toMatchObject({ status: 422, error: { detail: [{ loc: ["body", "payload", "note"], msg: "must be a string of 1 to 1024 characters", type: "value_error" }] } });
  });
});
