import http from "node:http";
import type { AddressInfo } from "node:net";
import next from "next";
import { PEER_ADDRESS_HEADER } from "@/lib/auth/client-address";
import { refuseMalformedTarget } from "@/lib/http/request-target";
import { directRoute, serveDirect, writeResponse } from "./direct-routes";

// Next's production server inside this process (it owns the embedded database), as npm start
// runs it, with the hottest route answered directly (direct-routes.ts); also used by benchmarks
// that measure the real HTTP stack.

const KEEP_ALIVE_TIMEOUT_MS = 75_000;

export interface RunningServer {
  port: number;
  close(): Promise<void>;
}

export async function serveNext({ root, host, port }: { root: string; host: string; port: number }): Promise<RunningServer> {
  const app = next({ dev: false, dir: root, hostname: host, port });
  const handler = app.getRequestHandler();
  await app.prepare();
  const server = http.createServer((req, res) => {
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
    async close() {
      server.close();
      server.closeAllConnections();
      await app.close().catch(() => undefined);
    },
  };
}
