import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { payloadKeysResult } from "@/lib/feedback/stats-schema";
import { createTestTeam } from "./factories";
import { post } from "./feedback-fixtures";

// POST /feedback/stats/keys: the payload paths a stats metric can name, with the kind of value
// found there, from the newest payloads of each feedback type.

type Team = Awaited<ReturnType<typeof createTestTeam>>;
let team: Team;

beforeAll(async () => {
  team = await createTestTeam();
});

interface Row {
  payload: Record<string, unknown>;
  type?: string;
  at?: string;
  trigger?: string;
}

async function projectWith(rows: Row[], owner: Team = team): Promise<string> {
  const name = `keys-${randomUUID().slice(0, 8)}`;
  const project = await getDb().project.create({ data: { teamId: owner.id, name } });
  await getDb().feedback.createMany({
    data: rows.map((row, i) => ({
      projectId: project.id,
      feedbackType: row.type ?? "grade",
      payload: row.payload as object,
      svcRef: `svc:///${owner.name}/${name}/call/${randomUUID()}`,
      triggerRef: row.trigger ?? null,
      wbUserId: owner.admin.principal.user.id,
      createdAt: new Date(row.at ?? Date.UTC(2024, 0, 1, 0, 0, i)),
    })),
  });
  return `${owner.name}/${name}`;
}

async function keys(body: Record<string, unknown>, as = team.member) {
  const { status, body: result } = await post("/feedback/stats/keys", body, as);
  expect(status, JSON.stringify(result)).toBe(200);
  return payloadKeysResult.parse(result).keys;
}

describe("payload keys", () => {
  it("lists the scalar paths through objects with their kind, sorted; arrays, nulls and keys a json_path cannot name are left out", async () => {
    const project = await projectWith([
      { payload: { score: 1, ok: true, label: "a", grade: { label: "b", detail: { n: 2 } }, "Low quality": 0.5, "dotted.key": 1, "odd-key": 1, list: [1, 2], none: null } },
    ]);
    expect(await keys({ project_id: project })).toEqual([
      { json_path: "Low quality", value_kind: "number" },
      { json_path: "grade.detail.n", value_kind: "number" },
      { json_path: "grade.label", value_kind: "string" },
      { json_path: "label", value_kind: "string" },
      { json_path: "ok", value_kind: "boolean" },
      { json_path: "score", value_kind: "number" },
    ]);
  });

  it("a path holding several kinds gets the most frequent one", async () => {
    const project = await projectWith([{ payload: { score: 1 } }, { payload: { score: 2 } }, { payload: { score: "n/a" } }]);
    expect(await keys({ project_id: project })).toEqual([{ json_path: "score", value_kind: "number" }]);
  });

  it("samples each feedback type: many newer reactions do not hide an annotation's value", async () => {
    const reactions = Array.from({ length: 150 }, (_, i) => ({ type: "wandb.reaction.1", payload: { emoji: "👍", alias: ":thumbs_up:" }, at: new Date(Date.UTC(2024, 1, 1, 0, 0, i)).toISOString() }));
    const project = await projectWith([{ type: "wandb.annotation.quality", payload: { value: 4 }, at: "2024-01-01T00:00:00Z" }, ...reactions]);
    expect(await keys({ project_id: project })).toEqual([
      { json_path: "alias", value_kind: "string" },
      { json_path: "emoji", value_kind: "string" },
      { json_path: "value", value_kind: "number" },
    ]);
    expect(await keys({ project_id: project, feedback_type: "wandb.annotation.quality" })).toEqual([{ json_path: "value", value_kind: "number" }]);
  });

  it("filters by time range and trigger_ref as /feedback/stats does", async () => {
    const monitor = (digest: string) => `svc:///${team.name}/x/object/monitor:${digest}`;
    const project = await projectWith([
      { payload: { early: 1 }, at: "2024-01-01T00:00:00Z" },
      { payload: { late: 1 }, at: "2024-03-01T00:00:00Z", trigger: monitor("v1") },
      { payload: { later: true }, at: "2024-03-02T00:00:00Z", trigger: monitor("v2") },
    ]);
    const paths = async (body: Record<string, unknown>) => (await keys({ project_id: project, ...body })).map((k) => k.json_path);
    expect(await paths({ start: "2024-02-01T00:00:00Z" })).toEqual(["late", "later"]);
    expect(await paths({ end: "2024-02-01T00:00:00Z" })).toEqual(["early"]);
    expect(await paths({ trigger_ref: monitor("*") })).toEqual(["late", "later"]);
    expect(await paths({ trigger_ref: monitor("v2") })).toEqual(["later"]);
  });

  it("an empty project has none; another team's project is a 404; annotators may read them", async () => {
    expect(await keys({ project_id: await projectWith([]) })).toEqual([]);
    const project = await projectWith([{ payload: { score: 1 } }]);
    expect(await keys({ project_id: project }, team.annotator)).toEqual([{ json_path: "score", value_kind: "number" }]);
    const other = await createTestTeam();
    const theirs = await projectWith([{ payload: { secret: 1 } }], other);
    expect((await post("/feedback/stats/keys", { project_id: theirs }, team.member)).status).toBe(404);
  });

  it("end before start is a 400", async () => {
    const { status } = await post("/feedback/stats/keys", { project_id: await projectWith([]), start: "2024-02-01T00:00:00Z", end: "2024-01-01T00:00:00Z" }, team.member);
    expect(status).toBe(400);
  });
});
