import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseModelCandidatesSchema, baseModelInfoSchema, baseModelListSchema, type BaseModelInfo } from "@/lib/base-models/schemas";
import { resetEnvCache } from "@/lib/config/env";
import { dataPaths } from "@/lib/config/paths";
import { getDb } from "@/lib/db/client";
import { str } from "@/lib/engine/gguf/values";
import { writeRealLayoutModel } from "@/lib/engine/test-support/real-layout-models";
import { SMALL_SHAPES } from "@/lib/engine/test-support/real-layout-shapes";
import { rewriteGguf } from "@/lib/engine/test-support/rewrite-gguf";
import { modelSchema } from "@/lib/training/models/schemas";
import { useTempDataDir } from "./data-dir";
import { api, json } from "./http";
import { createTestUser, uniqueName, type TestUser } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";
import { waitFinished } from "./training-api";

// Base models managed by API (instance admins): GGUFs under ANNEAL_MODELS_DIR (never a path outside it,
// through links too) with part 1's checks before saving; added ones are served, trainable and named by
// their Hugging Face names at once, and by every process within the catalogue's cache time; removal is
// refused while models use a base; a models-file entry of the same name wins.

let fixture: InferenceFixture;
let admin: TestUser;
let user: TestUser;
let outside: string;
useTempDataDir("base-models");

/** Unique per run: PostgreSQL runs share one database between test files. */
const unique = (prefix: string) => uniqueName(`bm/${prefix}`);

beforeAll(async () => {
  fixture = installInferenceModels();
  [admin, user] = [await createTestUser({ admin: true }), await createTestUser()];
  const dir = dataPaths().models;
  fs.copyFileSync(fixture.files.model, path.join(dir, "tiny-copy.gguf"));
  fs.mkdirSync(path.join(dir, "sub"));
  writeRealLayoutModel(path.join(dir, "sub", "qwen3.gguf"), SMALL_SHAPES.qwen3, { name: "qwen3-small", seed: 3 });
  rewriteGguf(fixture.files.model, path.join(dir, "gemma2.gguf"), (metadata) => void (metadata["general.architecture"] = str("gemma2")));
  fs.writeFileSync(path.join(dir, "notes.gguf"), "not a model\n");
  // Links: one inside (served), two leaving the directory (refused, never listed).
  fs.symlinkSync(path.join(dir, "tiny-copy.gguf"), path.join(dir, "linked.gguf"));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-outside-"));
  fs.copyFileSync(fixture.files.model, path.join(outside, "secret.gguf"));
  fs.symlinkSync(path.join(outside, "secret.gguf"), path.join(dir, "escape.gguf"));
  fs.symlinkSync(outside, path.join(dir, "outside-dir"));
});
afterAll(async () => {
  await getDb().baseModelEntry.deleteMany({ where: { name: { startsWith: "bm/" } } });
  fixture.remove();
  fs.rmSync(outside, { recursive: true, force: true });
});

const asAdmin = (method: string, url: string, body?: unknown) => json(api(method, url, { bearer: admin.key, body }));
const addBase = (body: Record<string, unknown>) => asAdmin("POST", "/v1/preview/base-models", body);
const listed = async (): Promise<BaseModelInfo[]> => baseModelListSchema.parse((await asAdmin("GET", "/v1/preview/base-models")).body).data;
const createModel = (name: string, baseModel: string) =>
  json(api("POST", "/v1/preview/models", { bearer: user.key, body: { project: "bases", name, base_model: baseModel } }));
const chat = (model: string) => json(api("POST", "/v1/chat/completions", { bearer: user.key, body: { model, messages: [{ role: "user", content: "hi" }], max_tokens: 2 } }));
const servedIds = async () => (await json(api("GET", "/v1/models", { bearer: user.key }))).body.data.map((m: { id: string }) => m.id) as string[];

describe("admins only", () => {
  it("every route is a 403 to a caller who is not an instance admin", async () => {
    for (const [method, url, body] of [
      ["GET", "/v1/preview/base-models"], ["GET", "/v1/preview/base-models/candidates"],
      ["POST", "/v1/preview/base-models", { name: "x/y", file: "tiny-copy.gguf" }], ["DELETE", "/v1/preview/base-models/01890a5d-ac96-774b-bcce-b302099a8057"],
    ] as const) {
      const response = await json(api(method, url, { bearer: user.key, body }));
      expect(response.status, `${method} ${url}`).toBe(403);
    }
  });
});

describe("GET /v1/preview/base-models", () => {
  it("lists the shipped and models-file bases with the facts of their GGUF headers, no id, no path", async () => {
    const tiny = (await listed()).find((b) => b.name === "test/tiny");
    expect(tiny).toEqual({
      id: null, name: "test/tiny", hf_names: [], source: "file", kind: "gguf", file: "tiny.gguf",
      architecture: "llama", parameters: expect.any(Number), context_length: expect.any(Number), weight_type: "F32",
      size_bytes: fs.statSync(fixture.files.model).size, train_modes: ["full", "lora"], models_count: expect.any(Number), shadowed: false,
      description: expect.any(String),
    });
    expect(tiny!.parameters).toBeGreaterThan(10_000);
    expect(JSON.stringify(await listed())).not.toContain(os.tmpdir());
  });
});

describe("GET /v1/preview/base-models/candidates", () => {
  it("lists every GGUF under ANNEAL_MODELS_DIR with the trainer's verdict; links leaving it are skipped", async () => {
    const { status, body } = await asAdmin("GET", "/v1/preview/base-models/candidates");
    expect(status).toBe(200);
    const candidates = baseModelCandidatesSchema.parse(body).data;
    expect(candidates.map((c) => c.file)).toEqual(["gemma2.gguf", "linked.gguf", "notes.gguf", path.join("sub", "qwen3.gguf"), "tiny-copy.gguf"]);
    const byFile = Object.fromEntries(candidates.map((c) => [c.file, c]));
    expect(byFile["tiny-copy.gguf"]).toMatchObject({ architecture: "llama", weight_type: "F32", train_modes: ["full", "lora"], refusal: null });
    expect(byFile[path.join("sub", "qwen3.gguf")]).toMatchObject({ architecture: "qwen3", train_modes: ["lora"], refusal: null, context_length: expect.any(Number) });
    expect(byFile["gemma2.gguf"]).toMatchObject({ architecture: "gemma2", train_modes: [], refusal: expect.stringContaining("architecture gemma2") });
    expect(byFile["notes.gguf"]).toMatchObject({ architecture: null, parameters: null, train_modes: [], refusal: "not a GGUF file" });
    expect(JSON.stringify(body)).not.toContain(os.tmpdir());
  });
});

describe("POST /v1/preview/base-models", () => {
  it("refuses files outside ANNEAL_MODELS_DIR (.., absolute, links leaving it), missing ones, non-GGUFs, without naming server paths", async () => {
    const name = unique("refused");
    const cases: [string, RegExp][] = [
      ["../secret.gguf", /must be under ANNEAL_MODELS_DIR/],
      [path.join(outside, "secret.gguf"), /must be under ANNEAL_MODELS_DIR/],
      ["/etc/passwd", /must be under ANNEAL_MODELS_DIR/],
      ["sub/../../x.gguf", /must be under ANNEAL_MODELS_DIR/],
      ["escape.gguf", /'escape.gguf' is a symbolic link leading outside ANNEAL_MODELS_DIR/],
      ["outside-dir/secret.gguf", /symbolic link leading outside ANNEAL_MODELS_DIR/],
      ["missing.gguf", /There is no file 'missing.gguf' in ANNEAL_MODELS_DIR/],
      ["sub", /'sub' in ANNEAL_MODELS_DIR is not a file/],
      ["notes.gguf", /'notes.gguf' cannot be added: not a GGUF file/],
    ];
    for (const [file, message] of cases) {
      const response = await addBase({ name, file });
      expect(response.status, file).toBe(400);
      expect(response.body.detail, file).toMatch(message);
      expect(response.body.detail).not.toContain(os.tmpdir());
    }
    expect(await getDb().baseModelEntry.count({ where: { name } })).toBe(0);
  });

  it("refuses trainable: true on a file the trainer refuses, naming the architecture; serve-only it is added", async () => {
    const name = unique("gemma");
    const refused = await addBase({ name, file: "gemma2.gguf", trainable: true });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/^Anneal cannot train 'gemma2.gguf': architecture gemma2: the trainer reads llama, qwen2, qwen3 GGUFs/);
    const added = await addBase({ name, file: "gemma2.gguf" });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ name, train_modes: [], architecture: "gemma2" });
    expect((await servedIds())).toContain(name);
    expect((await json(api("GET", "/v1/models", { bearer: user.key }))).body.data.find((m: { id: string }) => m.id === name)).toMatchObject({ trainable: false });
  });

  it("409 when the name or an hf_name is any base's name or hf_name; 422 for a malformed name", async () => {
    const first = unique("first");
    const hf = unique("Org/Model");
    expect((await addBase({ name: first, file: "tiny-copy.gguf", hf_name: hf })).status).toBe(201);
    const taken: [Record<string, unknown>, string][] = [
      [{ name: "test/tiny" }, "The name 'test/tiny' is taken by the base model 'test/tiny'."],
      [{ name: unique("x"), hf_name: ["Other/Name", "test/frozen"] }, "The name 'test/frozen' is taken by the base model 'test/frozen'."],
      [{ name: hf }, `The name '${hf}' is taken by the base model '${first}' (one of its hf_names).`],
      [{ name: unique("y"), hf_name: first }, `The name '${first}' is taken by the base model '${first}'.`],
    ];
    for (const [body, detail] of taken) {
      const response = await addBase({ file: "tiny-copy.gguf", ...body });
      expect(response).toEqual({ status: 409, body: { detail } });
    }
    const malformed = await addBase({ name: "../up", file: "tiny-copy.gguf" });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0].loc).toEqual(["body", "name"]);
  });
});

describe("a base added by API", () => {
  it("is served by its name and hf_name: listed by GET /v1/models, usable in POST /v1/preview/models and chat completions; removal waits for its models", async () => {
    const name = unique("qwen3");
    const hf = unique("Qwen/Qwen3-0.6B");
    const created = await addBase({ name, file: "sub/qwen3.gguf", hf_name: [hf], description: "a small qwen3" });
    expect(created.status).toBe(201);
    const info = baseModelInfoSchema.parse(created.body);
    expect(info).toMatchObject({ name, hf_names: [hf], source: "database", kind: "gguf", file: path.join("sub", "qwen3.gguf"), architecture: "qwen3", train_modes: ["lora"], models_count: 0, shadowed: false, description: "a small qwen3" });
    expect(info.id).toEqual(expect.any(String));
    const row = await getDb().baseModelEntry.findUniqueOrThrow({ where: { id: info.id! } });
    expect(row).toMatchObject({ file: path.join("sub", "qwen3.gguf"), trainable: true, createdById: admin.principal.user.id });

    expect(await servedIds()).toContain(name);
    const model = await createModel("on-hf-name", hf);
    expect(model.status, JSON.stringify(model.body)).toBe(200);
    expect(modelSchema.parse(model.body)).toMatchObject({ base_model: name, lora: expect.objectContaining({ rank: 16 }) });
    // ART creates with return_existing by the same Hugging Face name again.
    const again = await json(api("POST", "/v1/preview/models", { bearer: user.key, body: { project: "bases", name: "on-hf-name", base_model: hf, return_existing: true } }));
    expect(again).toMatchObject({ status: 200, body: { id: model.body.id } });
    for (const requested of [name, hf]) {
      const reply = await chat(requested);
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      expect(reply.body.model).toBe(name);
    }
    const unknown = await createModel("nowhere", "Org/Unknown");
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toContain(`${name} (${hf})`);
    expect(unknown.body.detail).not.toContain(".gguf");

    expect((await listed()).find((b) => b.id === info.id)).toMatchObject({ models_count: 1 });
    const refused = await asAdmin("DELETE", `/v1/preview/base-models/${info.id}`);
    expect(refused).toEqual({ status: 409, body: { detail: `'${name}' is the base of 1 model; delete it first.` } });
    expect((await json(api("DELETE", `/v1/preview/models/${model.body.id}`, { bearer: user.key }))).status).toBe(200);
    expect(await asAdmin("DELETE", `/v1/preview/base-models/${info.id}`)).toEqual({ status: 200, body: { id: info.id, name } });
    expect(await servedIds()).not.toContain(name);
    expect((await createModel("gone", hf)).status).toBe(400);
    const gone = await asAdmin("DELETE", `/v1/preview/base-models/${info.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.detail).toMatch(/shipped and models-file bases cannot be removed here/);
  });

  it("written by another process (straight into the table) is served here within the catalogue's 1 s, without a restart", async () => {
    const name = unique("elsewhere");
    await servedIds(); // the catalogue's cache is warm
    const row = await getDb().baseModelEntry.create({ data: { name, hfNames: [], file: "tiny-copy.gguf", trainable: true, createdById: admin.principal.user.id } });
    const started = Date.now();
    while (!(await servedIds()).includes(name)) {
      expect(Date.now() - started).toBeLessThan(2_000);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await createModel("elsewhere", name)).status).toBe(200);
    await getDb().model.deleteMany({ where: { baseModel: name } });
    await getDb().baseModelEntry.delete({ where: { id: row.id } });
  });

  it("is shadowed, not served, once the models file lists its name; removing it is allowed then", async () => {
    const name = unique("shadow");
    const created = await addBase({ name, file: "tiny-copy.gguf" });
    expect(created.status).toBe(201);
    const original = process.env.ANNEAL_MODELS_FILE!;
    const listing = path.join(fixture.files.dir, "shadowing.json");
    fs.writeFileSync(listing, JSON.stringify([...JSON.parse(fs.readFileSync(original, "utf8")), { name, gguf: fixture.files.model }]));
    process.env.ANNEAL_MODELS_FILE = listing;
    resetEnvCache();
    try {
      const entries = (await listed()).filter((b) => b.name === name);
      expect(entries.map((b) => [b.source, b.shadowed])).toEqual([["file", false], ["database", true]]);
      expect((await createModel("shadowed-base", name)).status).toBe(200);
      expect((await asAdmin("DELETE", `/v1/preview/base-models/${created.body.id}`)).status).toBe(200);
    } finally {
      process.env.ANNEAL_MODELS_FILE = original;
      resetEnvCache();
    }
  });
});

describe("two models-file entries claiming one name", () => {
  it("make every request that reads the catalogue a 503 naming both entries", async () => {
    const original = process.env.ANNEAL_MODELS_FILE!;
    const listing = path.join(fixture.files.dir, "clashing.json");
    fs.writeFileSync(listing, JSON.stringify([...JSON.parse(fs.readFileSync(original, "utf8")), { name: "test/again", gguf: "tiny.gguf", hf_name: "test/tiny" }]));
    process.env.ANNEAL_MODELS_FILE = listing;
    resetEnvCache();
    try {
      for (const response of [await json(api("GET", "/v1/models", { bearer: user.key })), await createModel("clash", "test/tiny"), await chat("test/tiny")]) {
        expect(response.status).toBe(503);
        expect(response.body.detail).toBe("Two base models claim the name 'test/tiny': ANNEAL_MODELS_FILE's entry 1 ('test/tiny') and ANNEAL_MODELS_FILE's entry 3 ('test/again'). Each name and hf_name must be listed once.");
      }
    } finally {
      process.env.ANNEAL_MODELS_FILE = original;
      resetEnvCache();
    }
  });
});

describe("npm start", () => {
  it("stops (exit 1) when two models-file entries claim one name, naming both", async () => {
    const listing = path.join(fixture.files.dir, "clashing-start.json");
    fs.writeFileSync(listing, JSON.stringify([{ name: "t/one", gguf: "tiny.gguf", hf_name: "Org/Same" }, { name: "t/two", gguf: "tiny.gguf", hf_name: ["Org/Same"] }]));
    const start = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      cwd: process.cwd(),
      env: { ...process.env, ANNEAL_MODELS_FILE: listing, ANNEAL_DEFAULT_MODEL: "", DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    start.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => start.on("exit", resolve));
    expect(code).toBe(1);
    expect(stderr).toContain("anneal: Two base models claim the name 'Org/Same': ANNEAL_MODELS_FILE's entry 1 ('t/one') and ANNEAL_MODELS_FILE's entry 2 ('t/two').");
  }, 60_000);
});

// Another process training on a base added after it started: a worker (npm run worker) on the shared
// PostgreSQL database (TEST_DATABASE_URL in npm test).
describe.skipIf(!process.env.DATABASE_URL)("a worker process", { timeout: 150_000 }, () => {
  let worker: ChildProcess | undefined;
  afterAll(() => worker?.kill("SIGKILL"));

  it("trains a model on a base added by API after the worker started", async () => {
    worker = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
      cwd: process.cwd(),
      env: { ...process.env, ANNEAL_JOB_POLL_MS: "100", ANNEAL_LOG_LEVEL: "error" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    await new Promise((r) => setTimeout(r, 3_000)); // its catalogue was read (and cached) before the base existed
    const name = unique("for-worker");
    const hf = unique("Org/ForWorker");
    expect((await addBase({ name, file: "tiny-copy.gguf", hf_name: hf })).status).toBe(201);
    const model = await createModel("worker-trained", hf);
    expect(model.status).toBe(200);
    const examples = ["a", "b"].map((content) => ({ messages: [{ role: "user", content }, { role: "assistant", content: "ok" }] }));
    const job = await json(api("POST", "/v1/preview/sft-training-jobs", { bearer: user.key, body: { model_id: model.body.id, training_data: examples, config: { batch_size: 2 } } }));
    expect(job.status, JSON.stringify(job.body)).toBe(200);
    const finished = await waitFinished(user.key, job.body.id, 120_000);
    expect(finished.status, finished.error ?? "").toBe("succeeded");
    expect(finished.runs.map((r) => r.pid)).toEqual([worker.pid]);
    await getDb().model.delete({ where: { id: model.body.id } });
  });
});
