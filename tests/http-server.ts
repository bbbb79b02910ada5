import http from "node:http";
import type { AddressInfo } from "node:net";
import { pipeline, Readable } from "node:stream";
import { api } from "./http";

// The app's route handlers behind a real HTTP server on loopback: for tests whose client must
// speak HTTP over a socket (e.g. Anneal as another Anneal's upstream).

export async function serveApp(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]));
    const response = await api(req.method ?? "GET", req.url ?? "/", { rawBody: chunks.length ? Buffer.concat(chunks) : undefined, headers });
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    // As Next does, a client that goes away cancels the response's stream.
    if (response.body) pipeline(Readable.fromWeb(response.body as never), res, () => {});
    else res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
