import { percentile } from "./latency-stats";

// bench:soak's HTTP side: every request goes to a web process that is up (as a load balancer
// sends it), is timed per route, and is classified by what the user saw: an answer (its status,
// and for a 503 whether it said when to retry), a connection cut because bench:soak killed that
// process meanwhile (expected), a connection failure otherwise (a failure), or no answer within
// HUNG_MS (hung: a failure).

/** A request without an answer this long is hung. */
export const HUNG_MS = 30_000;
/** How long a hung request is waited for before it is given up. */
const GIVE_UP_MS = 2 * HUNG_MS;

export interface WebTarget {
  url: string;
  /** False from the moment bench:soak kills it until it answers /v1/health again. */
  up: boolean;
  /** Counts the kills, so a request knows whether its process was killed while it waited. */
  kills: number;
}

export interface Answer {
  status: number;
  headers: Headers;
  /** The parsed JSON body (null for streams and bodies that are not JSON). */
  body: any;
  /** A stream's text up to where it was read. */
  text: string;
}

export interface SendOptions {
  body?: unknown;
  /** Basic `api:<key>` (feedback and annotation routes) instead of Bearer. */
  basic?: boolean;
  /** Reads a stream's body; `abortAfterChunks` cuts it after that many chunks, as a user closing the tab. */
  stream?: { abortAfterChunks?: number };
}

interface RouteStats {
  ms: number[];
  statuses: Map<number, number>;
}

export class Traffic {
  readonly routes = new Map<string, RouteStats>();
  requests = 0;
  serverErrors500: string[] = [];
  /** 503s that said when to retry (Retry-After), and every other 5xx. */
  retryLater503 = 0;
  otherServerErrors: string[] = [];
  cutByKill = 0;
  connectionFailures: string[] = [];
  hung: string[] = [];
  /** Streams closed by their user after a few chunks. */
  closedEarly = 0;

  constructor(private readonly webs: WebTarget[]) {}

  /** Sends one request; null when no answer came (cut, failed or hung: counted here). */
  async send(route: string, key: string, method: string, path: string, options: SendOptions = {}): Promise<Answer | null> {
    const up = this.webs.filter((w) => w.up);
    const web = up[Math.floor(Math.random() * up.length)] ?? this.webs[0];
    const kills = web.kills;
    const controller = new AbortController();
    const giveUp = setTimeout(() => controller.abort(new Error("hung")), GIVE_UP_MS);
    const started = performance.now();
    this.requests++;
    try {
      const authorization = options.basic ? `Basic ${Buffer.from(`api:${key}`).toString("base64")}` : `Bearer ${key}`;
      const response = await fetch(`${web.url}${path}`, {
        method,
        headers: { authorization, ...(options.body !== undefined && { "content-type": "application/json" }) },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: controller.signal,
      });
      const answer: Answer = { status: response.status, headers: response.headers, body: null, text: "" };
      if (options.stream && response.ok) answer.text = await this.readStream(response, options.stream.abortAfterChunks);
      else {
        answer.text = await response.text();
        try {
          answer.body = JSON.parse(answer.text);
        } catch {
          // not JSON: kept as text
        }
      }
      this.record(route, performance.now() - started, answer);
      return answer;
    } catch (error) {
      const ms = performance.now() - started;
      const what = `${method} ${path} on ${web.url} after ${(ms / 1000).toFixed(1)} s: ${(error as Error).cause ?? (error as Error).message}`;
      if (controller.signal.aborted && ms >= HUNG_MS) this.hung.push(what);
      else if (web.kills !== kills) this.cutByKill++;
      else this.connectionFailures.push(what);
      return null;
    } finally {
      clearTimeout(giveUp);
    }
  }

  private async readStream(response: Response, abortAfterChunks?: number): Promise<string> {
    const decoder = new TextDecoder();
    let text = "";
    let chunks = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      // Leaving the loop cancels the body: the connection closes, as when a user closes the tab.
      if (abortAfterChunks !== undefined && ++chunks >= abortAfterChunks) {
        this.closedEarly++;
        break;
      }
    }
    return text;
  }

  private record(route: string, ms: number, answer: Answer): void {
    const stats: RouteStats = this.routes.get(route) ?? { ms: [], statuses: new Map() };
    this.routes.set(route, stats);
    stats.ms.push(ms);
    stats.statuses.set(answer.status, (stats.statuses.get(answer.status) ?? 0) + 1);
    if (ms >= HUNG_MS) this.hung.push(`${route}: answered ${answer.status} after ${(ms / 1000).toFixed(1)} s`);
    if (answer.status === 500) this.serverErrors500.push(`${route}: ${answer.text.slice(0, 200)}`);
    else if (answer.status === 503 && answer.headers.get("retry-after")) this.retryLater503++;
    else if (answer.status >= 500) this.otherServerErrors.push(`${route}: ${answer.status} ${answer.text.slice(0, 200)}`);
  }

  /** p50/p99 and statuses per route, busiest first. */
  summary(): { route: string; n: number; p50_ms: number; p99_ms: number; statuses: Record<string, number> }[] {
    return [...this.routes]
      .map(([route, { ms, statuses }]) => ({
        route,
        n: ms.length,
        p50_ms: Math.round(percentile(ms, 50)),
        p99_ms: Math.round(percentile(ms, 99)),
        statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
      }))
      .sort((a, b) => b.n - a.n);
  }
}
