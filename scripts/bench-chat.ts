// npm run bench:chat — the embedded tiny model behind the real HTTP stack (Next in this process,
// the route wrapper, SSE) at 1, 8 and 32 concurrent streams: tokens/s, p50/p99 latency and time to
// first token; and the HTTP layer's overhead against calling the engine directly, in the same
// process, on the same loaded model.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createApiKey } from "@/lib/auth/api-keys";
import { createUser } from "@/lib/auth/users";
import { closeDatabase, getDatabase } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { generate } from "@/lib/engine/serving/generate";
import { SHIPPED_MODEL } from "@/lib/inference/base-models";
import { flushCalls } from "@/lib/inference/call-recorder";
import { servingRegistry } from "@/lib/inference/engine";
import { buildApp, buildIsCurrent } from "./lib/build";
import { percentile } from "./lib/latency-stats";
import { serveNext } from "./lib/serve";
import { textTable } from "./lib/text-table";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
const CONCURRENCY = (process.env.BENCH_CHAT_STREAMS ?? "1,8,32").split(",").map(Number);
const ROUNDS = 2;
const messages = [{ role: "user", content: "Tell me about the sea." }];

interface Run {
  latencyMs: number;
  ttftMs: number;
  tokens: number;
}

interface Result {
  path: "http" | "direct";
  concurrency: number;
  tokensPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  ttftP50Ms: number;
  ttftP99Ms: number;
}

async function measure(concurrency: number, once: () => Promise<Run>): Promise<{ runs: Run[]; seconds: number }> {
  await Promise.all(Array.from({ length: concurrency }, once)); // warm-up round of the same shape
  const start = performance.now();
  const runs: Run[] = [];
  for (let round = 0; round < ROUNDS; round++) runs.push(...(await Promise.all(Array.from({ length: concurrency }, once))));
  return { runs, seconds: (performance.now() - start) / 1000 };
}

function summarise(pathName: Result["path"], concurrency: number, { runs, seconds }: { runs: Run[]; seconds: number }): Result {
  return {
    path: pathName,
    concurrency,
    tokensPerSecond: runs.reduce((s, r) => s + r.tokens, 0) / seconds,
    p50Ms: percentile(runs.map((r) => r.latencyMs), 50),
    p99Ms: percentile(runs.map((r) => r.latencyMs), 99),
    ttftP50Ms: percentile(runs.map((r) => r.ttftMs), 50),
    ttftP99Ms: percentile(runs.map((r) => r.ttftMs), 99),
  };
}

async function streamOverHttp(url: string, key: string, maxTokens: number): Promise<Run> {
  const start = performance.now();
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ messages, max_tokens: maxTokens, ignore_eos: true, stream: true, stream_options: { include_usage: true }, seed: 1 }),
  });
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  let ttftMs = NaN;
  let tokens = 0;
  const decoder = new TextDecoder();
  let buffered = "";
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    buffered += decoder.decode(read.value, { stream: true });
    const events = buffered.split("\n\n");
    buffered = events.pop() ?? "";
    for (const event of events) {
      const data = event.slice("data: ".length);
      if (data === "[DONE]") continue;
      const chunk = JSON.parse(data);
      if (Number.isNaN(ttftMs) && chunk.choices?.[0]?.logprobs) ttftMs = performance.now() - start;
      if (chunk.usage) tokens = chunk.usage.completion_tokens;
    }
  }
  return { latencyMs: performance.now() - start, ttftMs, tokens };
}

async function generateDirectly(promptTokens: number[], maxTokens: number): Promise<Run> {
  const start = performance.now();
  let ttftMs = NaN;
  let tokens = 0;
  const stream = generate(servingRegistry(), { model: SHIPPED_MODEL.gguf, promptTokens, maxTokens, ignoreEos: true, sampling: { seed: 1 } });
  for await (const _ of stream) {
    if (tokens++ === 0) ttftMs = performance.now() - start;
  }
  return { latencyMs: performance.now() - start, ttftMs, tokens };
}

async function main() {
  if (!fs.existsSync(SHIPPED_MODEL.gguf)) throw new Error(`bench:chat needs ${SHIPPED_MODEL.gguf} (npm run pretrain)`);
  if (!buildIsCurrent(root)) buildApp(root);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-bench-chat-"));
  process.env.ANNEAL_DATA_DIR = dataDir;
  process.env.ANNEAL_LOG_LEVEL = "warn";
  delete process.env.DATABASE_URL;
  delete process.env.ANNEAL_MODELS_FILE;
  try {
    await migrate(getDatabase().sql);
    const { user } = await createUser({ username: "bench", email: "bench@anneal.local" });
    const { key } = await createApiKey({ user, via: "password" }, { name: "bench" });
    const server = await serveNext({ root, host: "127.0.0.1", port: 0 });
    const url = `http://127.0.0.1:${server.port}`;

    const model = await servingRegistry().model(SHIPPED_MODEL.gguf);
    const context = servingRegistry().contextSize(model);
    const probe = await (await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ messages, max_tokens: 1, return_token_ids: true }),
    })).json();
    const promptTokens: number[] = probe.prompt_token_ids;
    const maxTokens = Math.min(128, context - promptTokens.length - 1);
    console.log(`model: ${SHIPPED_MODEL.name}, context ${context} tokens; prompt ${promptTokens.length} tokens + ${maxTokens} generated${maxTokens < 128 ? " (128 do not fit this model's context)" : ""}`);
    console.log(`load average: ${os.loadavg().map((l) => l.toFixed(2)).join(" / ")} on ${os.cpus().length} CPUs`);

    const results: Result[] = [];
    for (const c of CONCURRENCY) {
      results.push(summarise("direct", c, await measure(c, () => generateDirectly(promptTokens, maxTokens))));
      results.push(summarise("http", c, await measure(c, () => streamOverHttp(url, key, maxTokens))));
    }
    const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
    console.log(
      textTable(
        "streams of the embedded tiny model (seeded sampling, end-of-turn ignored)",
        results.map((r) => ({
          path: r.path === "http" ? "HTTP + SSE" : "engine in-process",
          streams: String(r.concurrency),
          "tokens/s": fmt(r.tokensPerSecond),
          "p50 ms": fmt(r.p50Ms),
          "p99 ms": fmt(r.p99Ms),
          "TTFT p50 ms": fmt(r.ttftP50Ms),
          "TTFT p99 ms": fmt(r.ttftP99Ms),
        })),
      ),
    );
    const overhead = CONCURRENCY.map((c) => {
      const direct = results.find((r) => r.path === "direct" && r.concurrency === c)!;
      const http = results.find((r) => r.path === "http" && r.concurrency === c)!;
      return { streams: c, overhead: direct.tokensPerSecond / http.tokensPerSecond - 1 };
    });
    console.log(textTable("HTTP layer overhead (engine tokens/s ÷ HTTP tokens/s − 1)", overhead.map((o) => ({ streams: String(o.streams), overhead: `${fmt(o.overhead * 100, 1)}%` }))));
    console.log(`load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(" / ")}`);
    console.log(JSON.stringify({ benchmark: "chat", maxTokens, promptTokens: promptTokens.length, results, overhead }));
    await server.close();
    await flushCalls();
  } finally {
    await servingRegistry().dispose();
    await closeDatabase();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
