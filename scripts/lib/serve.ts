import http from "node:http";
import type { AddressInfo } from "node:net";
import next from "next";
import { PEER_ADDRESS_HEADER } from "@/lib/auth/client-address";
import { closeGracefully, InFlightRequests } from "@/lib/http/graceful-close";
import { refuseMalformedTarget } from "@/lib/http/request-target";
import { directRoute, serveDirect, writeResponse } from "./direct-routes";

// Next's production server inside this process (it owns the embedded database), as npm start
// runs it, with the hottest route answered directly (direct-routes.ts); also used by benchmarks
// that measure the real HTTP stack.

const KEEP_ALIVE_TIMEOUT_MS = 75_000;

export interface RunningServer {
  port: number;
  /** Requests being answered now. */
  readonly inFlight: number;
  /** Stops accepting connections and waits up to `drainMs` (default 0), or until `hurry` aborts,
   *  for the requests in flight to end before cutting them; resolves to how many were cut. */
  close(drainMs?: number, hurry?: AbortSignal): Promise<number>;
}

export async function serveNext({ root, host, port }: { root: string; host: string; port: number }): Promise<RunningServer> {
  const app = next({ dev: false, dir: root, hostname: host, port });
  const handler = app.getRequestHandler();
  await app.prepare();
  const server = http.createServer();
  const requests = new InFlightRequests();
  requests.attach(server);
  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    // The client's address for the password throttle (lib/auth/client-address.ts), written over
    // whatever the client sent in that header.
    req.headers[PEER_ADDRESS_HEADER] = req.socket.remoteAddress ?? "";
    const direct = directRoute(req);
    if (direct) return void serveDirect(direct, req, res);
    // Next's router answers a malformed target with a plain-text 500: refused here instead.
    const refusal = refuseMalformedTarget(req.url ?? "/", req.headers.host);
    void (refusal ? writeResponse(refusal, res) : handler(req, res));
  });
  // Node closes idle keep-alive connections after 5 s, the same expiry several HTTP clients use
  // (httpx's): a request sent on a connection at that moment is reset. 75 s, as nginx does.
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    get inFlight() {
      return requests.size;
    },
    async close(drainMs = 0, hurry?: AbortSignal) {
      const cut = await closeGracefully(server, requests, drainMs, hurry);
      await app.close().catch(() => undefined);
      return cut;
    },
  };
}
