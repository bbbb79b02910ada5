// One route handler behind a real HTTP server on loopback, in this process (as tests/http-server.ts
// serves them to tests): the request goes through a socket, Node's HTTP parser and the route
// wrapper (auth, validation, the domain function), without Next's router in front.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { RouteHandler } from "@/lib/http/handle";

export async function serveRoute(method: string, path: string, handler: RouteHandler): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    if (req.method !== method || req.url?.split("?")[0] !== path) return void res.writeHead(404).end();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    const request = new Request(`http://${req.headers.host}${req.url}`, { method, headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined });
    const response = await handler(request, { params: Promise.resolve({}) });
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
