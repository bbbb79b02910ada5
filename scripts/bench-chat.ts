// npm run bench:chat — the embedded tiny model behind the real HTTP stack (Next in this process,
// the route wrapper, SSE) at 1, 8 and 32 concurrent streams: tokens/s, p50/p99 latency and time to
// first token; and the HTTP layer's overhead against calling the engine directly, in the same
// process, on the same loaded model, in the same run: the same request, parsed by the same schema,
// handed to the engine thread that the route hands it to, its events read here. The HTTP client
// runs in a child process (scripts/lib/bench-chat-client.ts), so parsing the streams does not load
// the server's event loop. The overhead is given two ways: as throughput (back-to-back pairs, which
// this machine's drifting speed makes noisy) and as the CPU the HTTP side adds per token over the
// engine's CPU per token in the same seconds (steady; Linux only, from per-thread CPU times).
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import { createApiKey } from "@/lib/auth/api-keys";
import { createUser } from "@/lib/auth/users";
import { flushCalls } from "@/lib/call-log/call-recorder";
import { closeDatabase, getDatabase } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { createScratchDatabase } from "@/lib/db/scratch-database";
import { TINY_CHAT } from "@/lib/inference/base-models";
import { chatCompletionRequestSchema } from "@/lib/inference/chat-request";
import { embeddedEngine } from "@/lib/inference/engine";
import type { CompletionJob } from "@/lib/inference/engine-thread/messages";
import type { ClientJob } from "./lib/bench-chat-client";
import { closedLoop, type Measurement, type Run } from "./lib/closed-loop";
import { buildApp, buildIsCurrent } from "./lib/build";
import { percentile } from "./lib/latency-stats";
import { serveNext } from "./lib/serve";
import { textTable } from "./lib/text-table";
import { threadCpu, threadCpuSince, type ThreadCpu } from "./lib/thread-cpu";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
const CONCURRENCY = (process.env.BENCH_CHAT_STREAMS ?? "1,8,32").split(",").map(Number);
/** Each level is measured this many times, the two paths alternating, so that a burst of other load
 *  on a shared machine does not land on one path only; tokens/s and CPU are the trials' medians. */
const TRIALS = Number(process.env.BENCH_CHAT_TRIALS ?? 5);
/** Requests per stream in a trial: at least 32 in all (and two per stream), so p99 is not one run. */
const requestsPerStream = (concurrency: number) => Math.max(2, Math.ceil(32 / concurrency));
const messages = [{ role: "user", content: "Tell me about the sea." }];
const WARM_UP_REQUESTS = 320;
const WARM_UP_STREAMS = 8;

type PathName = "http" | "direct";

interface Trial extends Measurement {
  /** CPU time of this process (the server and the engine, every thread) over the timed requests. */
  serverCpuMs: number;
  /** The same, by thread: the web server's event loop and the engine's threads (Linux only). */
  threads?: ThreadCpu;
}

interface Result {
  path: PathName;
  concurrency: number;
  tokensPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  ttftP50Ms: number;
  ttftP99Ms: number;
  /** Server-process CPU per generated token, in microseconds, over all trials. */
  serverCpuUsPerToken: number;
  /** Of which the web server's thread and the engine's threads (Linux only). */
  webThreadUsPerToken?: number;
  engineUsPerToken?: number;
  /** The HTTP client's own CPU per token (its process). */
  clientCpuUsPerToken?: number;
}

const median = (values: readonly number[]) => percentile(values, 50);
const tokensOf = (m: Measurement) => m.runs.reduce((s, r) => s + r.tokens, 0);

/** µs per token of a CPU time summed over the trials (a trial's main thread is a few 10 ms ticks). */
function usPerToken(trials: readonly Trial[], cpuMs: (t: Trial) => number | undefined): number | undefined {
  const times = trials.map(cpuMs);
  if (times.some((t) => t === undefined)) return undefined;
  return ((times as number[]).reduce((a, b) => a + b, 0) * 1000) / trials.reduce((s, t) => s + tokensOf(t), 0);
}

function summarise(pathName: PathName, concurrency: number, trials: readonly Trial[]): Result {
  const runs = trials.flatMap((t) => t.runs);
  return {
    path: pathName,
    concurrency,
    tokensPerSecond: median(trials.map((t) => tokensOf(t) / t.seconds)),
    p50Ms: percentile(runs.map((r) => r.latencyMs), 50),
    p99Ms: percentile(runs.map((r) => r.latencyMs), 99),
    ttftP50Ms: percentile(runs.map((r) => r.ttftMs), 50),
    ttftP99Ms: percentile(runs.map((r) => r.ttftMs), 99),
    serverCpuUsPerToken: usPerToken(trials, (t) => t.serverCpuMs)!,
    webThreadUsPerToken: usPerToken(trials, (t) => t.threads?.mainMs),
    engineUsPerToken: usPerToken(trials, (t) => t.threads?.otherMs),
    ...(pathName === "http" && { clientCpuUsPerToken: usPerToken(trials, (t) => t.clientCpuMs) }),
  };
}

/** With BENCH_CHAT_PROFILE=<dir>, each timed measurement also writes a CPU profile of this (the
 *  server's) process to <dir>/<path>-<streams>-<trial>.cpuprofile: where the time goes, without
 *  startup, warm-up or the client. */
async function profiled<T>(name: string, run: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_CHAT_PROFILE;
  if (!dir) return run();
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  try {
    return await run();
  } finally {
    const { profile } = await session.post("Profiler.stop");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

/** A timed measurement, with this process's CPU time over it. */
async function trial(name: string, run: () => Promise<Measurement>): Promise<Trial> {
  return profiled(name, async () => {
    const cpu = process.cpuUsage();
    const threads = threadCpu();
    const measurement = await run();
    const { user, system } = process.cpuUsage(cpu);
    return { ...measurement, serverCpuMs: (user + system) / 1000, threads: threadCpuSince(threads) };
  });
}

/** Runs one job in the client process and waits for its measurement; then writes the calls it
 *  recorded (write-behind, flushed every second), so that their cost counts in this measurement's
 *  server CPU rather than in whichever comes next. */
async function measureOverHttp(client: ChildProcess, job: ClientJob): Promise<Measurement> {
  const measurement = await runClientJob(client, job);
  await flushCalls();
  return measurement;
}

function runClientJob(client: ChildProcess, job: ClientJob): Promise<Measurement> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`bench client exited (${code})`));
    client.once("exit", onExit);
    client.once("message", (reply: { measurement?: Measurement; error?: string }) => {
      client.off("exit", onExit);
      if (reply.measurement) resolve(reply.measurement);
      else reject(new Error(`bench client: ${reply.error}`));
    });
    client.send(job);
  });
}

/** The HTTP request's body as the route hands it to the engine (parsed, with its defaults). */
function engineJob(body: unknown): CompletionJob {
  return { gguf: TINY_CHAT.gguf, servedName: TINY_CHAT.name, trainable: TINY_CHAT.trainable, request: chatCompletionRequestSchema.parse(body) };
}

/** One completion straight from the engine, its events read as the SSE writer reads them. */
async function completeDirectly(job: CompletionJob): Promise<Run> {
  const start = performance.now();
  let ttftMs = NaN;
  let tokens = 0;
  const run = embeddedEngine().start(job);
  await run.prepared;
  for await (const event of run.events()) {
    if (event.kind !== "delta") continue;
    if (tokens === 0) ttftMs = performance.now() - start;
    tokens += event.tokenIds.length;
  }
  return { latencyMs: performance.now() - start, ttftMs, tokens };
}

/** The CPU the HTTP side adds per token — the web server thread's beyond what it spends reading the
 *  engine's events in-process, and the client's — as a share of the engine threads' CPU in the same
 *  HTTP trials. Measured over the same seconds, it does not drift with the machine's speed as
 *  back-to-back throughputs do; it leaves out how much the HTTP side's threads slow the engine's by
 *  sharing the cores (the throughput overhead includes it). */
function httpCpuShare(direct: Result, http: Result): number | undefined {
  if (http.webThreadUsPerToken === undefined || direct.webThreadUsPerToken === undefined || !http.engineUsPerToken) return undefined;
  return (http.webThreadUsPerToken - direct.webThreadUsPerToken + (http.clientCpuUsPerToken ?? 0)) / http.engineUsPerToken;
}

interface PerRequest {
  /** Server CPU per request, in milliseconds. */
  httpMs: number;
  directMs: number;
}

/** The fixed cost of a request apart from its tokens: one-token requests one at a time, HTTP and
 *  in-process in back-to-back pairs, server CPU per request (medians). */
async function measurePerRequest(client: ChildProcess, job: Omit<ClientJob, "concurrency" | "requestsPerStream">): Promise<PerRequest> {
  const count = 100;
  const cpuPerRequest = async (run: () => Promise<unknown>) => {
    const cpu = process.cpuUsage();
    await run();
    const { user, system } = process.cpuUsage(cpu);
    return (user + system) / 1000 / count;
  };
  const http = () => cpuPerRequest(() => measureOverHttp(client, { ...job, concurrency: 1, requestsPerStream: count }));
  const engine = engineJob(job.body);
  const direct = () => cpuPerRequest(() => closedLoop(1, count, () => completeDirectly(engine)));
  await http();
  await direct();
  const pairs: PerRequest[] = [];
  for (let t = 0; t < TRIALS; t++) pairs.push({ httpMs: await http(), directMs: await direct() });
  return { httpMs: median(pairs.map((p) => p.httpMs)), directMs: median(pairs.map((p) => p.directMs)) };
}

async function main() {
  if (!fs.existsSync(TINY_CHAT.gguf)) throw new Error(`bench:chat needs ${TINY_CHAT.gguf} (npm run pretrain)`);
  if (!buildIsCurrent(root)) await buildApp(root);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-bench-chat-"));
  process.env.ANNEAL_DATA_DIR = dataDir;
  process.env.ANNEAL_LOG_LEVEL = "warn";
  // The embedded database in a fresh data directory; with BENCH_CHAT_DATABASE_URL, a fresh database
  // on that PostgreSQL server (where calls are committed before each response ends).
  const scratch = process.env.BENCH_CHAT_DATABASE_URL ? await createScratchDatabase(process.env.BENCH_CHAT_DATABASE_URL, "anneal_bench_chat") : undefined;
  if (scratch) process.env.DATABASE_URL = scratch.url;
  else delete process.env.DATABASE_URL;
  delete process.env.ANNEAL_MODELS_FILE;
  try {
    await migrate(getDatabase().sql);
    const { user } = await createUser({ username: "bench", email: "bench@anneal.local" });
    const { key } = await createApiKey({ user, via: "password" }, { name: "bench" });
    const server = await serveNext({ root, host: "127.0.0.1", port: 0 });
    const url = `http://127.0.0.1:${server.port}`;

    // Without max_tokens a completion may fill the context: its budget plus the prompt is the context.
    const probe = embeddedEngine().start(engineJob({ messages }));
    const { promptTokens, maxTokens: room } = await probe.prepared;
    probe.abort();
    const context = promptTokens.length + room;
    const maxTokens = Math.min(128, room - 1);
    console.log(`model: ${TINY_CHAT.name}, context ${context} tokens; prompt ${promptTokens.length} tokens + ${maxTokens} generated${maxTokens < 128 ? " (128 do not fit this model's context)" : ""}`);
    console.log(`database: ${scratch ? "PostgreSQL" : "embedded PGlite"}`);
    console.log(`load average: ${os.loadavg().map((l) => l.toFixed(2)).join(" / ")} on ${os.cpus().length} CPUs`);

    const client = fork(path.join(root, "scripts/lib/bench-chat-client.ts"), [], { execArgv: ["--import", "tsx"] });
    const body = { messages, max_tokens: maxTokens, ignore_eos: true, stream: true, stream_options: { include_usage: true }, seed: 1 };
    const results: Result[] = [];
    let perRequest: PerRequest | undefined;
    const overhead: { streams: number; throughput: number; throughputRange: [number, number]; httpCpu?: number; ttftAddedMs: number }[] = [];
    try {
      // Both paths first run until V8 has optimised their code, as a server that has been up for a
      // while has: a few hundred completions (the HTTP path's code — parsing, auth, validation, SSE
      // — runs a few times per completion and stays in V8's baseline tier for the first ~100).
      const warmUp = engineJob(body);
      await closedLoop(WARM_UP_STREAMS, WARM_UP_REQUESTS / WARM_UP_STREAMS, () => completeDirectly(warmUp));
      await measureOverHttp(client, { url, key, body, concurrency: WARM_UP_STREAMS, requestsPerStream: WARM_UP_REQUESTS / WARM_UP_STREAMS });
      for (const c of CONCURRENCY) {
        const job = engineJob(body);
        const direct = (perStream: number) => closedLoop(c, perStream, () => completeDirectly(job));
        const http = (perStream: number) => measureOverHttp(client, { url, key, body, concurrency: c, requestsPerStream: perStream });
        await direct(1); // warm-up of the same shape
        await http(1);
        const trials: Record<PathName, Trial[]> = { direct: [], http: [] };
        for (let t = 1; t <= TRIALS; t++) {
          // Pairs in alternating order (direct first, then HTTP first, …), so neither path is
          // always the one measured after the other.
          const order: PathName[] = t % 2 === 1 ? ["direct", "http"] : ["http", "direct"];
          for (const p of order) trials[p].push(await trial(`${p}-${c}-${t}`, () => (p === "direct" ? direct : http)(requestsPerStream(c))));
        }
        const [d, h] = [summarise("direct", c, trials.direct), summarise("http", c, trials.http)];
        results.push(d, h);
        // Each pair ran back to back, so its ratio cancels the slow drifts of a shared machine's
        // speed; the overhead is the median pair's, with the range of all pairs beside it.
        const pairs = trials.direct.map((dt, i) => ({ direct: dt, http: trials.http[i] }));
        const throughputs = pairs.map((p) => tokensOf(p.direct) / p.direct.seconds / (tokensOf(p.http) / p.http.seconds) - 1);
        overhead.push({ streams: c, throughput: median(throughputs), throughputRange: [Math.min(...throughputs), Math.max(...throughputs)], httpCpu: httpCpuShare(d, h), ttftAddedMs: h.ttftP50Ms - d.ttftP50Ms });
      }
      perRequest = await measurePerRequest(client, { url, key, body: { ...body, max_tokens: 1 } });
    } finally {
      client.kill();
    }
    const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
    console.log(
      textTable(
        `streams of the embedded tiny model (seeded sampling, end-of-turn ignored; median of ${TRIALS} trials)`,
        results.map((r) => ({
          path: r.path === "http" ? "HTTP + SSE" : "engine in-process",
          streams: String(r.concurrency),
          "tokens/s": fmt(r.tokensPerSecond),
          "p50 ms": fmt(r.p50Ms),
          "p99 ms": fmt(r.p99Ms),
          "TTFT p50 ms": fmt(r.ttftP50Ms, 1),
          "TTFT p99 ms": fmt(r.ttftP99Ms, 1),
          "server CPU µs/token": fmt(r.serverCpuUsPerToken),
          "of which web thread": r.webThreadUsPerToken === undefined ? "" : fmt(r.webThreadUsPerToken),
          "of which engine": r.engineUsPerToken === undefined ? "" : fmt(r.engineUsPerToken),
          "client CPU µs/token": r.clientCpuUsPerToken === undefined ? "" : fmt(r.clientCpuUsPerToken),
        })),
      ),
    );
    console.log(
      textTable(
        "HTTP layer overhead: engine tokens/s ÷ HTTP tokens/s − 1 (median of the back-to-back pairs), and the HTTP side's CPU ÷ the engine's (per token, over the same seconds)",
        overhead.map((o) => ({
          streams: String(o.streams),
          "throughput overhead": `${fmt(o.throughput * 100, 1)}%`,
          "pairs' range": `${fmt(o.throughputRange[0] * 100, 1)}% … ${fmt(o.throughputRange[1] * 100, 1)}%`,
          "HTTP CPU ÷ engine CPU": o.httpCpu === undefined ? "" : `${fmt(o.httpCpu * 100, 1)}%`,
          "TTFT added ms": fmt(o.ttftAddedMs, 1),
        })),
      ),
    );
    if (perRequest) {
      console.log(
        `per request (max_tokens 1, one at a time, median of ${TRIALS} pairs): server CPU ${fmt(perRequest.httpMs, 2)} ms over HTTP, ` +
          `${fmt(perRequest.directMs, 2)} ms in-process: the HTTP layer's fixed cost is ${fmt(perRequest.httpMs - perRequest.directMs, 2)} ms a request ` +
          `(${fmt(((perRequest.httpMs - perRequest.directMs) * 1000) / maxTokens)} µs per token of a ${maxTokens}-token completion)`,
      );
    }
    console.log(`load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(" / ")}`);
    console.log(JSON.stringify({ benchmark: "chat", maxTokens, promptTokens: promptTokens.length, results, overhead, perRequest }));
    await server.close();
    await flushCalls();
  } finally {
    await embeddedEngine().dispose();
    await closeDatabase();
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
