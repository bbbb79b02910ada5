// Closing an HTTP server the way a rolling restart needs: stop accepting connections, let the
// requests in flight finish (a streamed completion runs to its end) for up to a drain time, and
// only then cut what is left. Keep-alive connections are closed as soon as they fall idle, and a
// request that still arrives on one while draining is answered with `Connection: close`.
import type http from "node:http";

/** Counts a server's requests in flight; `attach` before the server's own request handler. */
export class InFlightRequests {
  private readonly open = new Set<http.ServerResponse>();
  draining = false;

  attach(server: http.Server): void {
    server.on("request", (_req: http.IncomingMessage, res: http.ServerResponse) => {
      this.open.add(res);
      res.once("close", () => this.open.delete(res));
      if (this.draining) res.setHeader("Connection", "close");
    });
  }

  get size(): number {
    return this.open.size;
  }
}

const POLL_MS = 25;

/** Stops `server` after its requests in flight end, after `drainMs`, or when `hurry` aborts;
 *  returns how many were cut. */
export async function closeGracefully(server: http.Server, requests: InFlightRequests, drainMs: number, hurry?: AbortSignal): Promise<number> {
  requests.draining = true;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const deadline = Date.now() + drainMs;
  while (requests.size > 0 && Date.now() < deadline && !hurry?.aborted) {
    server.closeIdleConnections();
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const cut = requests.size;
  server.closeAllConnections();
  await closed;
  return cut;
}
