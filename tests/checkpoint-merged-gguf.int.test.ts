import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { mergeLoraIntoGguf } from "@/lib/engine/gguf/merge-lora";
import { openGguf } from "@/lib/engine/gguf/read-gguf";
import { writeRealLayoutLora } from "@/lib/engine/test-support/real-layout-lora";
import { writeRealLayoutModel } from "@/lib/engine/test-support/real-layout-models";
import { SMALL_SHAPES } from "@/lib/engine/test-support/real-layout-shapes";
import { absoluteCheckpointPath } from "@/lib/training/jobs/job-files";
import { MERGED_EXPORT_RETRY_AFTER_S } from "@/lib/training/models/merged-gguf-export";
import { modelSchema, type ModelDto } from "@/lib/training/models/schemas";
import { useTempDataDir } from "./data-dir";
import { createTestUser, type TestUser } from "./factories";
import { api, json } from "./http";
import { serveApp } from "./http-server";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";

// GET .../checkpoints/{step}/download?format=merged-gguf over a real socket: the base with an
// imported LoRA checkpoint merged, F16, streamed with its length known up front; one export at a time per process
// (a second is a 429), the slot given back when a download ends, is aborted by its client, or fails.

const BASE = "test/qwen2-merge";
const SHAPE = SMALL_SHAPES.qwen2;

let fixture: InferenceFixture;
let user: TestUser;
let server: { url: string; close(): Promise<void> };
let basePath: string;
let model: ModelDto;
let adapterPath: string;
useTempDataDir("merged-gguf");

const writeBase = () => writeRealLayoutModel(basePath, SHAPE, { name: "qwen2-small", seed: 3 });

beforeAll(async () => {
  fixture = installInferenceModels();
  basePath = path.join(fixture.files.dir, "qwen2-merge.gguf");
  writeBase();
  const listing = path.join(fixture.files.dir, "merge-models.json");
  const entries = JSON.parse(fs.readFileSync(process.env.ANNEAL_MODELS_FILE!, "utf8")) as unknown[];
  fs.writeFileSync(listing, JSON.stringify([...entries, { name: BASE, gguf: basePath, trainable: true }]));
  process.env.ANNEAL_MODELS_FILE = listing;
  resetEnvCache();
  user = await createTestUser();
  const created = await json(api("POST", "/v1/preview/models", { bearer: user.key, body: { project: "merge", name: "merged", base_model: BASE } }));
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  model = modelSchema.parse(created.body);
  // A LoRA checkpoint imported as a GGUF adapter (trained elsewhere with the model's LoRA settings).
  const upload = path.join(fixture.files.dir, "adapter.gguf");
  writeRealLayoutLora(upload, SHAPE, { rank: 16, alpha: 32, seed: 4 });
  const imported = await json(api("POST", `/v1/preview/models/${model.id}/checkpoints`, { bearer: user.key, body: new Uint8Array(fs.readFileSync(upload)) }));
  expect(imported.status, JSON.stringify(imported.body)).toBe(201);
  expect(imported.body).toMatchObject({ step: 1, source: "gguf-lora" });
  const checkpoint = await getDb().checkpoint.findFirstOrThrow({ where: { modelId: model.id, step: 1 } });
  adapterPath = absoluteCheckpointPath(checkpoint.file);
  server = await serveApp();
}, 120_000);
afterAll(async () => {
  await server?.close();
  fixture.remove();
});

const download = (signal?: AbortSignal) =>
  fetch(`${server.url}/v1/preview/models/${model.id}/checkpoints/1/download?format=merged-gguf`, { headers: { authorization: `Bearer ${user.key}` }, signal });

/** Downloads until the export slot is free again (the previous download's release is asynchronous). */
async function downloadWhenFree(): Promise<Response> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await download();
    if (res.status !== 429 || Date.now() > deadline) return res;
    await res.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("format=merged-gguf", () => {
  it("streams the base with the adapter merged, F16, its length announced", async () => {
    const res = await download();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename*=UTF-8''merged-step1-merged-f16.gguf`);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get("content-length"))).toBe(bytes.length);

    const name = `merged-step1 (LoRA merged into ${BASE})`;
    const local = mergeLoraIntoGguf({ basePath, adapterPath, name });
    expect(bytes.equals(Buffer.concat([...local.chunks()]))).toBe(true);
    const saved = path.join(fixture.files.dir, "downloaded.gguf");
    fs.writeFileSync(saved, bytes);
    const file = openGguf(saved);
    try {
      expect(file.metadata["general.name"]?.value).toBe(name);
      expect(file.metadata["general.file_type"]?.value).toBe(1);
      expect(file.metadata["tokenizer.ggml.model"]?.value).toBe("gpt2");
    } finally {
      file.close();
    }
  });

  it("is one at a time: a second request while one streams is a 429, and an aborted download gives the slot back", async () => {
    const first = new AbortController();
    const streaming = await download(first.signal);
    expect(streaming.status).toBe(200);
    const reader = streaming.body!.getReader();
    expect((await reader.read()).done).toBe(false);

    const second = await download();
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toBe(String(MERGED_EXPORT_RETRY_AFTER_S));
    expect((await second.json()).detail).toMatch(/Another merged GGUF is being made on this server \(one at a time\)/);

    first.abort();
    await reader.read().catch(() => undefined);
    const after = await downloadWhenFree();
    expect(after.status).toBe(200);
    expect((await after.arrayBuffer()).byteLength).toBe(Number(after.headers.get("content-length")));
    // And the finished download gave it back at once.
    const again = await download();
    expect(again.status).toBe(200);
    await again.arrayBuffer();
  });

  it("gives the slot back when the stream fails (the base cut short while it is read)", async () => {
    const failing = await downloadWhenFree();
    expect(failing.status).toBe(200);
    const reader = failing.body!.getReader();
    await reader.read();
    fs.truncateSync(basePath, 1 << 20); // the open file loses its tensors
    let failed = false;
    try {
      while (!(await reader.read()).done);
    } catch {
      failed = true;
    }
    expect(failed).toBe(true);
    writeBase();
    const after = await downloadWhenFree();
    expect(after.status).toBe(200);
    await after.arrayBuffer();
  });
});
