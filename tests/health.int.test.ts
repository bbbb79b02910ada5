import { describe, expect, it } from "vitest";
import { ALL_OPERATIONS } from "@/lib/api/operations";
import { getDb } from "@/lib/db/client";
import { systemCheckSchema } from "@/lib/health/operations";
import { api, json } from "./http";

describe("health", () => {
  it("GET /v1/health is ok without credentials", async () => {
    expect(await json(api("GET", "/v1/health"))).toEqual({ status: 200, body: { status: "ok" } });
  });

  it("GET /v1/system-check runs real checks and skips what is not configured", async () => {
    const { status, body } = await json(api("GET", "/v1/system-check"));
    const check = systemCheckSchema.parse(body);
    expect(check).toMatchObject({ api: true, database: true, engine: { success: true, error: null } });
    // On PostgreSQL the files share one database: another file's job may be waiting while no runner
    // is alive, and then the queue is rightly the failing check (its own test below runs on PGlite).
    if (process.env.DATABASE_URL && check.cpu_queue.success === false) expect(status).toBe(503);
    else expect(status).toBe(200);
    expect(check.database_check.duration).toBeGreaterThan(0);
    expect(check.gpu_queue).toMatchObject({ success: true, skipped: true });
    expect(check.cpu_queue).toMatchObject({ workers: expect.any(Number), queued: expect.any(Number), running: expect.any(Number) });
  });

  // On PostgreSQL the test files share one database, and other files' runners count as workers.
  it.skipIf(process.env.DATABASE_URL)("reports the CPU queue unhealthy (503) when jobs wait and no training worker is alive, healthy once one checks in", async () => {
    const project = await getDb().project.create({ data: { team: { create: { name: `health-${Date.now()}` } }, name: "p" } });
    const model = await getDb().model.create({ data: { projectId: project.id, name: "m", baseModel: "anneal/tiny-chat" } });
    const job = await getDb().trainingJob.create({ data: { modelId: model.id, kind: "sft", input: "{}" } });
    const stuck = await json(api("GET", "/v1/system-check"));
    expect(stuck.status).toBe(503);
    expect(stuck.body.cpu_queue).toMatchObject({ success: false, workers: 0, queued: 1, error: expect.stringMatching(/no training worker is running/) });

    await getDb().trainingWorker.create({ data: { id: "health-test-worker", hostname: "here", pid: 1, kind: "worker" } });
    const served = await json(api("GET", "/v1/system-check"));
    expect(served.status).toBe(200);
    expect(served.body.cpu_queue).toMatchObject({ success: true, workers: 1, queued: 1 });
    await getDb().trainingJob.delete({ where: { id: job.id } });
    await getDb().trainingWorker.delete({ where: { id: "health-test-worker" } });
  });

  it("GET /v1/openapi.json documents every operation with its schemas", async () => {
    const { status, body } = await json(api("GET", "/v1/openapi.json"));
    expect(status).toBe(200);
    expect(body.openapi).toBe("3.1.0");
    for (const op of ALL_OPERATIONS) {
      const described = body.paths[op.path]?.[op.method.toLowerCase()];
      expect(described, `${op.method} ${op.path}`).toBeDefined();
      expect(described.operationId).toBe(op.id);
    }
    const create = body.paths["/v1/api-keys"].post;
    expect(create.requestBody.content["application/json"].schema.required).toEqual(["name"]);
    expect(create.responses["201"].content["application/json"].schema.properties.key).toBeDefined();
    expect(body.paths["/v1/api-keys"].get.parameters.map((p: { name: string }) => p.name)).toEqual(["after", "limit", "order", "include_revoked"]);
  });
});
