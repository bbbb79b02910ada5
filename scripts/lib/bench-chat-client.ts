// The HTTP side of bench:chat, run in its own process (forked by scripts/bench-chat.ts) so that
// reading and parsing the streams never shares the server's event loop: the server's numbers are
// then the server's own. It speaks node:http with keep-alive (a client's connection reuse, and far
// less per-chunk work than fetch's web streams) and parses only what it measures: the time to the
// first token chunk and the usage chunk's completion_tokens.
import http from "node:http";
import { closedLoop, type Measurement, type Run } from "./closed-loop";

export interface ClientJob {
  url: string;
  key: string;
  /** The request body, sent as is. */
  body: unknown;
  concurrency: number;
  requestsPerStream: number;
}

// `timeout` lets the agent honour the server's Keep-Alive hint (it then drops an idle socket a second
// before the server would), so a socket is never reused at the moment the server closes it.
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, timeout: 60_000 });

function stream(job: ClientJob, payload: string): Promise<Run> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${job.url}/v1/chat/completions`,
      { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload), authorization: `Bearer ${job.key}` } },
      (response) => {
        response.setEncoding("utf8");
        let buffered = "";
        let ttftMs = NaN;
        let tokens = NaN;
        response.on("data", (text: string) => {
          buffered += text;
          let end: number;
          while ((end = buffered.indexOf("\n\n")) >= 0) {
            const event = buffered.slice(0, end);
            buffered = buffered.slice(end + 2);
            // The first chunk carrying a token's logprobs is the first token (tiny-chat is trainable:
            // logprobs are on by default); the usage chunk is the only one with empty choices.
            if (Number.isNaN(ttftMs) && event.includes('"logprobs":{')) ttftMs = performance.now() - start;
            else if (event.includes('"choices":[],')) tokens = JSON.parse(event.slice("data: ".length)).usage.completion_tokens;
          }
        });
        response.on("end", () => {
          if (response.statusCode !== 200) reject(new Error(`HTTP ${response.statusCode}: ${buffered}`));
          else resolve({ latencyMs: performance.now() - start, ttftMs, tokens });
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

/** The job's streams over HTTP, timed, with this process's CPU time. */
export async function measureOverHttp(job: ClientJob): Promise<Measurement> {
  const payload = JSON.stringify(job.body);
  const cpu = process.cpuUsage();
  const measurement = await closedLoop(job.concurrency, job.requestsPerStream, () => stream(job, payload));
  const { user, system } = process.cpuUsage(cpu);
  return { ...measurement, clientCpuMs: (user + system) / 1000 };
}

if (process.send) {
  process.on("message", (job: ClientJob) => {
    measureOverHttp(job).then(
      (measurement) => process.send!({ measurement }),
      (error: Error) => process.send!({ error: error.stack ?? error.message }),
    );
  });
}
