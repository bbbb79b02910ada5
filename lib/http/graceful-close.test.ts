import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { closeGracefully, InFlightRequests } from "./graceful-close";

// A real HTTP server that streams chunks 40 ms apart (a streamed completion): 5 of them, or 100 on /long.
async function streamingServer() {
  const server = http.createServer();
  const requests = new InFlightRequests();
  requests.attach(server);
  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.url === "/quick") return void res.end("quick");
    res.writeHead(200, { "content-type": "text/plain" });
    const chunks = req.url === "/long" ? 100 : 5;
    let sent = 0;
    const timer = setInterval(() => {
      res.write(`chunk ${++sent}\n`);
      if (sent === chunks) {
        clearInterval(timer);
        res.end();
      }
    }, 40);
    res.once("close", () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, requests, port };
}

const agent = new http.Agent({ keepAlive: true });
afterEach(() => agent.destroy());

function get(port: number, path: string): Promise<{ body: string; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path, agent }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ body, complete: res.complete }));
      res.on("aborted", () => resolve({ body, complete: false }));
      res.on("error", () => resolve({ body, complete: false }));
    });
    req.on("error", reject);
  });
}

const started = (requests: InFlightRequests) => new Promise<void>((resolve) => {
  const poll = () => (requests.size > 0 ? resolve() : setTimeout(poll, 5));
  poll();
});

describe("closeGracefully", () => {
  it("lets a streamed response finish, refuses new connections meanwhile, and then closes", async () => {
    const { server, requests, port } = await streamingServer();
    await get(port, "/quick"); // leaves an idle keep-alive connection, which must not hold the close
    const stream = get(port, "/stream");
    await started(requests);
    const closing = closeGracefully(server, requests, 5_000);
    await expect(new Promise((resolve, reject) => http.get({ host: "127.0.0.1", port, path: "/quick", agent: false }, resolve).on("error", reject)))
      .rejects.toThrow(/ECONNREFUSED/);
    const response = await stream;
    expect(response).toMatchObject({ complete: true, body: "chunk 1\nchunk 2\nchunk 3\nchunk 4\nchunk 5\n" });
    expect(await closing).toBe(0);
  });

  it("cuts what is still in flight after the drain time, or at once when hurried", async () => {
    for (const [drainMs, hurried] of [[60, false], [5_000, true]] as const) {
      const { server, requests, port } = await streamingServer();
      const stream = get(port, "/long");
      await started(requests);
      const hurry = new AbortController();
      const closing = closeGracefully(server, requests, drainMs, hurry.signal);
      if (hurried) setTimeout(() => hurry.abort(), 30);
      expect(await closing).toBe(1);
      const cut = await stream;
      expect(cut.complete).toBe(false); // its 100 chunks take 4 s
      expect(cut.body.split("\n").length).toBeLessThan(100);
    }
  });
});
