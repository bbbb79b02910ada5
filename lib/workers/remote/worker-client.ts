// A remote worker's side of Anneal's HTTP API (docs/workers.md). Every call carries the worker key.
// A network error, a 5xx or a 429 is tried again with backoff until the call's deadline — within the
// lease's time: a worker cut off for longer has lost its job to the next worker anyway. A 409 is a
// Conflict (on a lease route: the lease is lost); any other refusal is a WorkerApiError with
// Anneal's `detail`.
import fs from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/** A 409. On a lease route the lease is gone (expired and taken over, the job ended, the key
 *  revoked): write nothing more. On the probe: the base does not match. */
export class Conflict extends Error {}

export class WorkerApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The server did not answer before the call's deadline. */
export class ServerUnreachable extends Error {}

export interface CallOptions {
  /** JSON, or raw bytes (an upload's chunk). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Try again until then (Date.now() ms); undefined: forever (the lease request, between jobs). 0: once. */
  deadline?: number;
}

const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 5_000;
const retryable = (status: number) => status === 429 || status >= 500;

export class WorkerClient {
  constructor(
    /** Anneal's address, e.g. http://anneal:3000 */
    readonly server: string,
    private readonly key: string,
  ) {
    this.server = server.replace(/\/+$/, "");
  }

  /** A call whose answer is JSON. */
  async json<T>(method: string, route: string, options: CallOptions = {}): Promise<T> {
    return (await (await this.send(method, route, options)).json()) as T;
  }

  /** A GET whose body goes to `file` (a start adapter, a saved state). */
  async download(route: string, file: string, deadline?: number): Promise<void> {
    const response = await this.send("GET", route, { deadline });
    await pipeline(Readable.fromWeb(response.body as never), fs.createWriteStream(file));
  }

  /** The call, tried again on network errors, 5xx and 429 until the deadline; an ok answer or a throw. */
  async send(method: string, route: string, { body, headers = {}, deadline }: CallOptions = {}): Promise<Response> {
    const raw = body instanceof Uint8Array;
    const init: RequestInit = {
      method,
      headers: { authorization: `Bearer ${this.key}`, ...(body !== undefined && !raw && { "content-type": "application/json" }), ...headers },
      body: body === undefined ? undefined : raw ? (body as Uint8Array<ArrayBuffer>) : JSON.stringify(body),
    };
    for (let backoff = FIRST_BACKOFF_MS; ; backoff = Math.min(2 * backoff, MAX_BACKOFF_MS)) {
      let failure: Error;
      try {
        const response = await fetch(/^https?:\/\//.test(route) ? route : `${this.server}${route}`, init);
        if (response.ok) return response;
        const detail = await response.text().then(detailOf);
        if (response.status === 409) throw new Conflict(`${method} ${route}: ${detail}`);
        if (!retryable(response.status)) throw new WorkerApiError(response.status, `${method} ${route}: ${response.status} ${detail}`);
        failure = new WorkerApiError(response.status, `${method} ${route}: ${response.status} ${detail}`);
        const after = Number(response.headers.get("retry-after"));
        if (after > 0) backoff = Math.max(backoff, after * 1000);
      } catch (error) {
        if (error instanceof Conflict || error instanceof WorkerApiError) throw error;
        failure = error as Error; // the network: refused, reset, DNS
      }
      const wait = backoff * (0.75 + Math.random() / 2);
      if (deadline !== undefined && Date.now() + wait > deadline) throw new ServerUnreachable(`${method} ${route}: ${failure.message}`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** Anneal's error body is {"detail": "..."} (a list of issues for a 422). */
function detailOf(text: string): string {
  try {
    const { detail } = JSON.parse(text) as { detail?: unknown };
    if (detail !== undefined) return typeof detail === "string" ? detail : JSON.stringify(detail);
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 500);
}
