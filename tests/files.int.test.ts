import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/config/env";
import { dataPaths } from "@/lib/config/paths";
import { getDb } from "@/lib/db/client";
import { findFileForCaller, parseFileRef, readFileForCaller } from "@/lib/files/files";
import { deletedFileSchema, filePage, fileSchema } from "@/lib/files/schemas";
import { useTempDataDir } from "./data-dir";
import { api, json } from "./http";
import { serveApp } from "./http-server";
import { createTestTeam, createTestUser, type TestUser } from "./factories";
import { installInferenceModels } from "./inference-fixture";

// The Files API as OpenAI's SDKs use it: multipart upload into a team, list, metadata, raw
// content, delete; limits, validation and tenancy; and the functions SFT jobs read files with.

const dataDir = useTempDataDir("files");
let user: TestUser;

beforeAll(async () => {
  user = await createTestUser();
});

const JSONL = '{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}\n';

function form(fields: Record<string, string | Blob | [Blob, string]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (Array.isArray(value)) data.append(name, value[0], value[1]);
    else data.append(name, value);
  }
  return data;
}

const upload = (fields: Record<string, string | Blob | [Blob, string]>, key = user.key) =>
  json(api("POST", "/v1/files", { bearer: key, body: form(fields) }));

const uploadJsonl = (extra: Record<string, string> = {}, key = user.key, filename = "train.jsonl") =>
  upload({ file: [new Blob([JSONL]), filename], purpose: "fine-tune", ...extra }, key);

describe("POST /v1/files", () => {
  it("stores the bytes under files/<id> in the caller's personal team and answers the file object", async () => {
    const before = Math.floor(Date.now() / 1000);
    const { status, body } = await uploadJsonl();
    expect(status).toBe(200);
    const file = fileSchema.parse(body);
    expect(body).toEqual({
      id: file.id, object: "file", bytes: Buffer.byteLength(JSONL), filename: "train.jsonl", purpose: "fine-tune",
      created_at: expect.any(Number), status: "processed", team: user.username,
    });
    expect(file.created_at).toBeGreaterThanOrEqual(before);
    expect(fs.readFileSync(path.join(dataPaths().files, file.id), "utf8")).toBe(JSONL);
    expect(fs.readdirSync(dataPaths().files).filter((f) => f.endsWith(".upload"))).toEqual([]);
  });

  it("uploads into another team the caller may use (multipart field `team`); a team-scoped key uses its team", async () => {
    const team = await createTestTeam();
    const member = await uploadJsonl({ team: team.name }, team.member.key);
    expect(member).toMatchObject({ status: 200, body: { team: team.name } });

    const { body: scoped } = await json(api("POST", "/v1/api-keys", { bearer: team.admin.key, body: { name: "scoped", team: team.name } }));
    expect(await uploadJsonl({}, scoped.key)).toMatchObject({ status: 200, body: { team: team.name } });

    expect(await uploadJsonl({ team: team.name }, team.annotator.key)).toMatchObject({ status: 403 });
    expect(await uploadJsonl({ team: team.name })).toEqual({ status: 404, body: { detail: `Team '${team.name}' not found.` } });
  });

  it("422 names the missing or invalid field", async () => {
    const missingFile = await upload({ purpose: "fine-tune" });
    expect(missingFile).toEqual({ status: 422, body: { detail: [{ loc: ["body", "file"], msg: "Field required", type: "missing" }] } });
    const missingPurpose = await upload({ file: [new Blob([JSONL]), "a.jsonl"] });
    expect(missingPurpose).toEqual({ status: 422, body: { detail: [{ loc: ["body", "purpose"], msg: "Field required", type: "missing" }] } });
    const longPurpose = await upload({ file: [new Blob([JSONL]), "a.jsonl"], purpose: "p".repeat(65) });
    expect(longPurpose.body.detail).toEqual([{ loc: ["body", "purpose"], msg: expect.any(String), type: "too_long" }]);
    const emptyPurpose = await upload({ file: [new Blob([JSONL]), "a.jsonl"], purpose: "" });
    expect(emptyPurpose.body.detail).toEqual([{ loc: ["body", "purpose"], msg: expect.any(String), type: "too_short" }]);
    const notAFile = await upload({ file: JSONL, purpose: "fine-tune" });
    expect(notAFile.body.detail).toEqual([{ loc: ["body", "file"], msg: expect.any(String), type: "file_type" }]);
    const badTeam = await uploadJsonl({ team: "a/b" });
    expect(badTeam.body.detail).toEqual([{ loc: ["body", "team"], msg: expect.any(String), type: "string_pattern_mismatch" }]);

    const asJson = await json(api("POST", "/v1/files", { bearer: user.key, body: { file: "x", purpose: "fine-tune" } }));
    expect(asJson).toEqual({ status: 422, body: { detail: [{ loc: ["body"], msg: expect.stringMatching(/multipart\/form-data/), type: "value_error" }] } });
    const malformed = await json(
      api("POST", "/v1/files", { bearer: user.key, rawBody: "not a form", headers: { "content-type": "multipart/form-data; boundary=xyz" } }),
    );
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0]).toMatchObject({ loc: ["body"], type: "value_error" });
  });

  it("a body over 64 MiB is 413, whether declared or streamed, and leaves nothing behind", async () => {
    const rowsBefore = await getDb().file.count();
    const declared = await json(
      api("POST", "/v1/files", {
        bearer: user.key,
        rawBody: "--xyz--\r\n",
        headers: { "content-type": "multipart/form-data; boundary=xyz", "content-length": String(64 * 1024 * 1024 + 1) },
      }),
    );
    expect(declared).toEqual({ status: 413, body: { detail: "Request body exceeds this route's limit of 64 MiB." } });

    // The file alone is just the limit; with the form's boundaries and headers the body is over it.
    // (A FormData body has no Content-Length here: the limit is met while counting the stream.)
    const streamed = await upload({ file: [new Blob([new Uint8Array(64 * 1024 * 1024)]), "big.bin"], purpose: "fine-tune" });
    expect(streamed).toEqual({ status: 413, body: { detail: "Request body exceeds this route's limit of 64 MiB." } });
    expect(await getDb().file.count()).toBe(rowsBefore);
    expect(fs.readdirSync(dataPaths().files).filter((f) => f.endsWith(".upload"))).toEqual([]);
  });

  it("a failure before the row is written leaves no row", async () => {
    const broken = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-files-broken-"));
    fs.writeFileSync(path.join(broken, "files"), "not a directory");
    process.env.ANNEAL_DATA_DIR = broken;
    resetEnvCache();
    try {
      const rowsBefore = await getDb().file.count();
      const { status, body } = await uploadJsonl();
      expect(status).toBe(503);
      expect(body.detail).toMatch(/could not be stored in the data directory \(E\w+\)/);
      expect(await getDb().file.count()).toBe(rowsBefore);
    } finally {
      process.env.ANNEAL_DATA_DIR = dataDir;
      resetEnvCache();
      fs.rmSync(broken, { recursive: true, force: true });
    }
  });
});

describe("GET /v1/files, GET/DELETE /v1/files/{id}, GET /v1/files/{id}/content", () => {
  it("lists newest first by default, pages with after, filters by purpose and team", async () => {
    const owner = await createTestUser();
    const ids: string[] = [];
    for (const purpose of ["fine-tune", "batch", "fine-tune"]) {
      ids.push((await upload({ file: [new Blob([JSONL]), `${purpose}.jsonl`], purpose }, owner.key)).body.id);
    }
    const all = filePage.parse((await json(api("GET", "/v1/files", { bearer: owner.key }))).body);
    expect(all.data.map((f) => f.id)).toEqual([...ids].reverse());
    expect(all).toMatchObject({ object: "list", first_id: ids[2], last_id: ids[0], has_more: false });

    const asc = (await json(api("GET", "/v1/files?order=asc&limit=2", { bearer: owner.key }))).body;
    expect(asc).toMatchObject({ data: [{ id: ids[0] }, { id: ids[1] }], has_more: true, last_id: ids[1] });
    const next = (await json(api("GET", `/v1/files?order=asc&limit=2&after=${ids[1]}`, { bearer: owner.key }))).body;
    expect(next).toMatchObject({ data: [{ id: ids[2] }], has_more: false });

    const fineTune = (await json(api("GET", "/v1/files?purpose=fine-tune", { bearer: owner.key }))).body;
    expect(fineTune.data.map((f: { id: string }) => f.id)).toEqual([ids[2], ids[0]]);
    expect((await json(api("GET", `/v1/files?team=${owner.username}&purpose=batch`, { bearer: owner.key }))).body.data).toHaveLength(1);

    const unknownCursor = await json(api("GET", `/v1/files?after=${ids[0]}`, { bearer: user.key }));
    expect(unknownCursor.body.detail[0]).toMatchObject({ loc: ["query", "after"] });
    expect((await json(api("GET", "/v1/files?limit=101", { bearer: owner.key }))).status).toBe(422);
  });

  it("gets the object and its bytes (application/jsonl for .jsonl), deletes it and then answers 404", async () => {
    const { body: file } = await uploadJsonl();
    expect(await json(api("GET", `/v1/files/${file.id}`, { bearer: user.key }))).toEqual({ status: 200, body: file });

    const content = await api("GET", `/v1/files/${file.id}/content`, { bearer: user.key });
    expect(content.status).toBe(200);
    expect(content.headers.get("content-type")).toBe("application/jsonl");
    expect(content.headers.get("content-length")).toBe(String(file.bytes));
    expect(await content.text()).toBe(JSONL);

    const deleted = await json(api("DELETE", `/v1/files/${file.id}`, { bearer: user.key }));
    expect(deleted).toEqual({ status: 200, body: { id: file.id, object: "file", deleted: true } });
    deletedFileSchema.parse(deleted.body);
    expect(fs.existsSync(path.join(dataPaths().files, file.id))).toBe(false);
    for (const [method, suffix] of [["DELETE", ""], ["GET", ""], ["GET", "/content"]]) {
      expect(await json(api(method, `/v1/files/${file.id}${suffix}`, { bearer: user.key }))).toEqual({
        status: 404,
        body: { detail: `File '${file.id}' not found.` },
      });
    }
  });

  it("returns binary bytes unchanged as application/octet-stream", async () => {
    const bytes = new Uint8Array([0, 255, 128, 10, 13, 0xc3, 0x28]);
    const { body: file } = await upload({ file: [new Blob([bytes]), "weights.bin"], purpose: "assistants" });
    expect(file.bytes).toBe(bytes.length);
    const content = await api("GET", `/v1/files/${file.id}/content`, { bearer: user.key });
    expect(content.headers.get("content-type")).toBe("application/octet-stream");
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(bytes);
  });

  it("another team's file is 404 everywhere and absent from lists; an annotator of its team gets 403", async () => {
    const team = await createTestTeam();
    const { body: file } = await uploadJsonl({ team: team.name }, team.admin.key);
    for (const [method, suffix] of [["GET", ""], ["GET", "/content"], ["DELETE", ""]]) {
      expect((await api(method, `/v1/files/${file.id}${suffix}`, { bearer: user.key })).status).toBe(404);
      expect((await api(method, `/v1/files/${file.id}${suffix}`, { bearer: team.annotator.key })).status).toBe(403);
    }
    const mine = (await json(api("GET", "/v1/files?limit=100", { bearer: user.key }))).body;
    expect(mine.data.map((f: { id: string }) => f.id)).not.toContain(file.id);
    expect((await api("GET", `/v1/files?team=${team.name}`, { bearer: user.key })).status).toBe(404);
    expect((await api("GET", `/v1/files?team=${team.name}`, { bearer: team.annotator.key })).status).toBe(403);
    expect((await api("GET", `/v1/files?after=${file.id}`, { bearer: user.key })).status).toBe(422);
    // The member sees it; the file survived the foreign delete.
    expect((await json(api("GET", `/v1/files/${file.id}`, { bearer: team.member.key }))).body).toEqual(file);
  });
});

describe("findFileForCaller, readFileForCaller, parseFileRef (what SFT jobs read training data with)", () => {
  it("parses ids and anneal-file:/// refs, and nothing else", () => {
    const id = "0190a6f3-1c2b-7d4e-8f00-123456789abc";
    expect(parseFileRef(id)).toBe(id);
    expect(parseFileRef(`anneal-file:///${id}`)).toBe(id);
    expect(parseFileRef(`anneal-file:///${id.toUpperCase()}`)).toBe(id);
    for (const ref of [`anneal-file://${id}`, `wandb-artifact:///${id}`, `https://example.test/${id}`, "file-abc", "", `${id}x`]) {
      expect(parseFileRef(ref)).toBeNull();
    }
  });

  it("finds the caller's file by id or ref and reads its bytes; another team's is a 404", async () => {
    const { body: file } = await uploadJsonl();
    const found = await findFileForCaller(user.principal, `anneal-file:///${file.id}`);
    const team = await getDb().team.findUniqueOrThrow({ where: { name: user.username } });
    expect(found).toEqual({
      id: file.id, teamId: team.id, filename: "train.jsonl", purpose: "fine-tune", bytes: file.bytes,
      absolutePath: path.join(dataPaths().files, file.id),
    });
    expect((await readFileForCaller(user.principal, file.id)).toString("utf8")).toBe(JSONL);

    const stranger = await createTestUser();
    await expect(findFileForCaller(stranger.principal, file.id)).rejects.toMatchObject({ status: 404 });
    await expect(readFileForCaller(stranger.principal, file.id)).rejects.toMatchObject({ status: 404 });
    await expect(findFileForCaller(user.principal, "wandb-artifact:///e/p/data:v1")).rejects.toMatchObject({ status: 404 });
  });

  it("an SFT job on a broken upload is a 400 naming the file as uploaded and the line", async () => {
    const fixture = installInferenceModels();
    try {
      const model = await json(api("POST", "/v1/preview/models", { bearer: user.key, body: { project: "files", name: "sft", base_model: "test/tiny" } }));
      const { body: file } = await upload({ file: [new Blob([`${JSONL}{not json\n`]), "broken.jsonl"], purpose: "fine-tune" });
      const res = await json(api("POST", "/v1/preview/sft-training-jobs", { bearer: user.key, body: { model_id: model.body.id, training_data_url: `anneal-file:///${file.id}` } }));
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe(`file broken.jsonl (${file.id}), line 2: not valid JSON (each line must be one {"messages": [...]} object).`);
    } finally {
      fixture.remove();
    }
  });
});

describe("the official openai SDK over HTTP", () => {
  let server: Awaited<ReturnType<typeof serveApp>>;
  let client: OpenAI;
  beforeAll(async () => {
    server = await serveApp();
    const owner = await createTestUser();
    client = new OpenAI({ apiKey: owner.key, baseURL: `${server.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => server.close());

  it("files.create (toFile and a read stream), retrieve, list with auto-pagination, content, delete", async () => {
    const fromBuffer = await client.files.create({ file: await toFile(Buffer.from(JSONL), "sft.jsonl"), purpose: "fine-tune" });
    expect(fromBuffer).toMatchObject({ object: "file", filename: "sft.jsonl", purpose: "fine-tune", bytes: Buffer.byteLength(JSONL), status: "processed" });

    const onDisk = path.join(dataDir, "from-disk.jsonl");
    fs.writeFileSync(onDisk, JSONL.repeat(3));
    const fromStream = await client.files.create({ file: fs.createReadStream(onDisk), purpose: "batch" });
    expect(fromStream).toMatchObject({ filename: "from-disk.jsonl", purpose: "batch", bytes: Buffer.byteLength(JSONL) * 3 });

    expect(await client.files.retrieve(fromBuffer.id)).toEqual(fromBuffer);
    await expect(client.files.waitForProcessing(fromStream.id)).resolves.toMatchObject({ id: fromStream.id });

    const listed: string[] = [];
    for await (const file of client.files.list({ limit: 1 })) listed.push(file.id);
    expect(listed).toEqual([fromStream.id, fromBuffer.id]);
    const batch = await client.files.list({ purpose: "batch" });
    expect(batch.data.map((f) => f.id)).toEqual([fromStream.id]);

    const content = await client.files.content(fromStream.id);
    expect(await content.text()).toBe(JSONL.repeat(3));

    expect(await client.files.delete(fromBuffer.id)).toEqual({ id: fromBuffer.id, object: "file", deleted: true });
    await expect(client.files.delete(fromBuffer.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });
});
