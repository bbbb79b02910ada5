import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { F16_WEIGHTS } from "@/lib/engine/test-support/f16-weights";
import { writeRealLayoutModel } from "@/lib/engine/test-support/real-layout-models";
import { SMALL_SHAPES } from "@/lib/engine/test-support/real-layout-shapes";
import { trainingEstimateSchema } from "@/lib/training/estimate/schemas";
import { BENCH_LORA_TRAINING } from "@/lib/training/estimate/training-cost";
import { api, json } from "./http";
import { createTestUser, type TestUser } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";

// GET /v1/preview/training-estimate on a random-weight Qwen2.5-layout F16 base (SMALL_SHAPES.qwen2:
// 64 wide, 2 layers, 4 heads of 16, 2 key/value heads, SwiGLU 128): the adapter's size from the
// file's own shapes, and the job's cost from bench:lora's table.

let fixture: InferenceFixture;
let user: TestUser;

beforeAll(async () => {
  fixture = installInferenceModels();
  const file = path.join(fixture.files.dir, "qwen2-f16.gguf");
  writeRealLayoutModel(file, SMALL_SHAPES.qwen2, { name: "qwen2-small", seed: 4, weights: F16_WEIGHTS });
  const listing = path.join(fixture.files.dir, "models.json");
  const entries = JSON.parse(fs.readFileSync(listing, "utf8")) as unknown[];
  fs.writeFileSync(listing, JSON.stringify([...entries, { name: "test/qwen2-f16", gguf: file, trainable: true }]));
  user = await createTestUser();
}, 60_000);
afterAll(() => fixture.remove());

const estimate = (query: string) => json(api("GET", `/v1/preview/training-estimate?${query}`, { bearer: user.key }));

describe("GET /v1/preview/training-estimate", () => {
  it("sizes the adapter from the base's shapes: rank·(in + out) per adapted matrix per layer", async () => {
    const res = await estimate("base_model=test/qwen2-f16&rank=8&target_modules=q_proj,v_proj");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = trainingEstimateSchema.parse(res.body);
    expect(body).toMatchObject({ base_model: "test/qwen2-f16", architecture: "qwen2", weight_type: "F16", job: null });
    expect(body.adapter.modules).toEqual([
      { module: "q_proj", in: 64, out: 64, parameters: 8 * 128 },
      { module: "v_proj", in: 64, out: 32, parameters: 8 * 96 },
    ]);
    expect(body.adapter).toMatchObject({ rank: 8, layers: 2, parameters: 2 * 8 * (128 + 96), bytes: 4 * 2 * 8 * (128 + 96) });
    // 151,936 × 64 embeddings (tied), 2 blocks of q/k/v/o, biases, SwiGLU and norms, the final norm.
    expect(body.parameters).toBe(9_798_208);
    expect(body.basis).toMatch(/bench:lora/);
  });

  it("estimates a job's time from the measured F16 speed and its peak memory", async () => {
    const body = trainingEstimateSchema.parse((await estimate("base_model=test/qwen2-f16&steps=4&tokens=2048")).body);
    const smollm = BENCH_LORA_TRAINING.find((r) => r.shape === "SmolLM2-135M" && r.weights === "F16")!;
    // Smaller than both measured shapes: the smaller one's parameter-tokens per second.
    const fastest = (smollm.tokensPerSecond.fast * smollm.parameters) / body.parameters;
    expect(body.job).toMatchObject({ steps: 4, tokens: 2048, tokens_per_step: 512 });
    expect(body.job!.seconds.low).toBeCloseTo(2048 / fastest, 6);
    expect(body.job!.seconds.high).toBeGreaterThan(body.job!.seconds.low);
    expect(body.job!.peak_memory_bytes).toBeGreaterThan(body.adapter.bytes);
    expect(body.adapter.parameters).toBe(2 * 16 * (128 + 96 + 96 + 128 + 3 * 192)); // the defaults: rank 16, every projection
  });

  it("counts an RL job's steps as the server packs them: ANNEAL_RL_ROWS_PER_STEP (128) trajectories a step at most", async () => {
    const body = trainingEstimateSchema.parse((await estimate("base_model=test/qwen2-f16&rl_rows=300&tokens=6000")).body);
    expect(body.job).toMatchObject({ steps: 3, tokens: 6000, tokens_per_step: 2000 });
  });

  it("refuses an unknown or serve-only base (400) and a rank or module outside the allowed ones (422)", async () => {
    expect((await estimate("base_model=test/nope")).status).toBe(400);
    expect((await estimate("base_model=test/frozen")).status).toBe(400);
    const rank = await estimate("base_model=test/qwen2-f16&rank=12");
    expect(rank.status).toBe(422);
    expect(JSON.stringify(rank.body)).toContain("rank");
    expect((await estimate("base_model=test/qwen2-f16&target_modules=lm_head")).status).toBe(422);
  });
});
