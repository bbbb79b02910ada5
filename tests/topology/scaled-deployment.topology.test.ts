import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScratchDatabase, type ScratchDatabase } from "@/lib/db/scratch-database";
import { buildIsCurrent } from "../../scripts/lib/build";
import { residentMb, until } from "../../scripts/lib/anneal-processes";
import { startScaledDeployment, type ScaledDeployment } from "../../scripts/lib/scaled-deployment";

// The scaled deployment of docs/operations.md, as an operator runs it: one PostgreSQL, two web
// processes (`npm start` with training left to workers) on one shared data directory, two
// `npm run worker` processes. Jobs are submitted through both web processes; a worker is killed
// (SIGKILL) in the middle of a job, and a web process right after it answered completions. Runs
// after the production build (npm test), on the PostgreSQL server of TEST_DATABASE_URL, with the
// shipped model (models/tiny-chat.gguf) for chat and training.

const SERVER_URL = process.env.TEST_DATABASE_URL;
const INIT_KEY = "topology-init-key-0123456789abcdefghij";
/** Workers save a job's state every this many steps (ANNEAL_TRAINING_SAVE_STEPS). */
const SAVE_STEPS = 4;
/** How soon a revoked key must stop working on every web process. */
const REVOCATION_BOUND_MS = 1000;

const examples = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ messages: [{ role: "user", content: `say ${i}` }, { role: "assistant", content: `ok ${i}` }] }));

describe.skipIf(!SERVER_URL)("a scaled deployment: two web processes, two workers, one PostgreSQL", () => {
  let database: ScratchDatabase;
  let sql: pg.Pool;
  let dataDir: string;
  let deployment: ScaledDeployment;
  const everyOutput = () => deployment.everyOutput();

  const call = (web: number, method: string, route: string, body?: unknown, key = INIT_KEY) =>
    fetch(`${deployment.webs[web].url}${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const callJson = async (web: number, method: string, route: string, body?: unknown) => {
    const response = await call(web, method, route, body);
    const parsed = await response.json();
    if (!response.ok) throw new Error(`${method} ${route} on web ${web}: ${response.status} ${JSON.stringify(parsed)}`);
    return parsed;
  };

  beforeAll(async () => {
    if (!buildIsCurrent(process.cwd())) throw new Error("The topology test serves the production build: run `npx next build` first (npm test does).");
    database = await createScratchDatabase(SERVER_URL!, "anneal_topology");
    sql = new pg.Pool({ connectionString: database.url, max: 2 });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-topology-"));
    deployment = await startScaledDeployment({
      databaseUrl: database.url,
      dataDir,
      initKey: INIT_KEY,
      webs: 2,
      workers: 2,
      workerEnv: {
        ANNEAL_JOB_LEASE_MS: "1500",
        ANNEAL_JOB_HEARTBEAT_MS: "200",
        ANNEAL_JOB_POLL_MS: "100",
        ANNEAL_TRAINING_SAVE_STEPS: String(SAVE_STEPS),
        ANNEAL_TRAINING_SAVE_SECONDS: "600",
      },
    });
  }, 180_000);

  afterAll(async () => {
    await deployment?.stop();
    await sql?.end();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("a key revoked through one web process stops working on both within a second", async () => {
    const created = await callJson(0, "POST", "/v1/api-keys", { name: "short-lived" });
    for (const web of [0, 1]) for (let i = 0; i < 2; i++) expect((await call(web, "GET", "/v1/me", undefined, created.key)).status).toBe(200);
    const roundTrip = performance.now();
    expect((await call(1, "GET", "/v1/me", undefined, created.key)).status).toBe(200);
    const roundTripMs = performance.now() - roundTrip; // what one request costs on this machine now
    expect((await call(0, "DELETE", `/v1/api-keys/${created.id}`)).status).toBe(200);
    const revokedAt = performance.now();
    // A request sent within the bound after the revocation's response is refused by the other process.
    await until("the other web process to refuse the revoked key", async () => (await call(1, "GET", "/v1/me", undefined, created.key)).status === 401, REVOCATION_BOUND_MS, everyOutput, 10);
    console.log(`revocation: the other web process refused the key ${(performance.now() - revokedAt).toFixed(0)} ms after the revoking response (one request's round trip: ${roundTripMs.toFixed(0)} ms)`);
    expect((await call(0, "GET", "/v1/me", undefined, created.key)).status).toBe(401);
  });

  it("runs jobs from both web processes once each; a job whose worker was killed resumes past its last save", async () => {
    const modelOn = async (web: number, name: string) => (await callJson(web, "POST", "/v1/preview/models", { project: "topology", name, base_model: "anneal/tiny-chat" })).id as string;
    const sft = async (web: number, modelId: string, count: number) =>
      (await callJson(web, "POST", "/v1/preview/sft-training-jobs", { model_id: modelId, training_data: examples(count), config: { batch_size: 1 } })).id as string;
    const long = await sft(0, await modelOn(0, "long"), 40);
    const short = await sft(1, await modelOn(1, "short"), 6);
    const job = async (id: string) => callJson(0, "GET", `/v1/preview/training-jobs/${id}`);

    // Killed past its first save, the long job's worker leaves a saved state behind.
    await until("the long job to pass its first save", async () => (await job(long)).steps_done >= SAVE_STEPS + 2, 150_000, everyOutput);
    const processes = [...deployment.webs.map((w) => w.process), ...deployment.workers];
    console.log(`resident memory while training: ${processes.map((p) => `${p.name} ${residentMb(p) ?? "?"} MB`).join(", ")}`);
    const [{ leaseOwner }] = (await sql.query(`SELECT "leaseOwner" FROM "TrainingJob" WHERE id = $1`, [long])).rows;
    const owner = deployment.workers.find((w) => leaseOwner.split(":")[1] === String(w.child.pid))!;
    expect(owner, `lease owner ${leaseOwner}`).toBeDefined();
    await owner.kill();

    const finished = async (id: string) => ["succeeded", "failed", "cancelled"].includes((await job(id)).status);
    await until("both jobs to finish", async () => (await finished(long)) && (await finished(short)), 150_000, everyOutput, 250);

    for (const [id, attempts] of [[long, 2], [short, 1]] as const) {
      const done = await job(id);
      expect(done, `${JSON.stringify(done)}\n${everyOutput()}`).toMatchObject({ status: "succeeded", attempts });
      const events = (await sql.query(`SELECT type, data FROM "TrainingJobEvent" WHERE "jobId" = $1 ORDER BY seq`, [id])).rows as { type: string; data: Record<string, unknown> }[];
      // Each job ends once, and its feed counts each step once (as ART's progress bar counts them).
      expect(events.filter((e) => e.type === "training_started")).toHaveLength(1);
      expect(events.filter((e) => e.type === "training_ended" || e.type === "training_failed")).toHaveLength(1);
      expect(events.at(-1)!.type).toBe("training_ended");
      expect(events.filter((e) => e.type === "gradient_step")).toHaveLength(done.num_sequences);
    }
    // The second attempt went on from a state saved by the first, not from step 0.
    const { runs } = await job(long);
    expect(runs[1].resumed_from_step).toBeGreaterThanOrEqual(SAVE_STEPS);
    expect(await sql.query(`SELECT count(*)::int AS n FROM "Checkpoint"`).then((r) => r.rows[0].n)).toBe(2);
  }, 360_000);

  it("no answered completion is lost when its web process is killed right after answering", async () => {
    const messages = [{ role: "user", content: "hello" }];
    const answered = await Promise.all(
      [false, true, false, true, false, true].map(async (stream) => {
        const response = await call(1, "POST", "/v1/chat/completions", { messages, max_tokens: 6, stream });
        const body = await response.text(); // the whole answer: the JSON, or the stream through [DONE]
        expect(response.status, body).toBe(200);
        if (stream) expect(body.trimEnd().endsWith("data: [DONE]")).toBe(true);
        return response.headers.get("anneal-call-id")!;
      }),
    );
    await deployment.webs[1].process.kill(); // at once: nothing written behind survives this
    const listed = await callJson(0, "GET", "/v1/calls?limit=100");
    const ids = new Set((listed.data as { id: string }[]).map((c) => c.id));
    expect(answered.filter((id) => !ids.has(id))).toEqual([]);
  });
});
