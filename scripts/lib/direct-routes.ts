import type http from "node:http";
import { Readable } from "node:stream";
import { POST as createChatCompletion } from "@/app/v1/chat/completions/route";
import type { RouteHandler } from "@/lib/http/handle";
import { refuseMalformedTarget } from "@/lib/http/request-target";
import { log } from "@/lib/log";

// Routes npm start answers without Next's request pipeline: the same route handler (the same
// wrapper: auth, validation, errors), given a Web Request built here. Next's routing, request
// adaptation and response piping cost ~2 ms of CPU a request on these machines — the larger part
// of a chat completion's fixed cost, on the event loop every stream shares — so only the hottest
// route takes this path; every other one (and `next dev`/`next start`) goes through Next.

const ROUTES = new Map<string, RouteHandler>([
  ["POST /v1/chat/completions", createChatCompletion],
  ["POST /v1/chat/completions/", createChatCompletion],
]);

/** The handler for this request, if it is one of the direct routes. */
export function directRoute(req: http.IncomingMessage): RouteHandler | undefined {
  const path = req.url?.split("?", 1)[0];
  return ROUTES.get(`${req.method} ${path}`);
}

export async function serveDirect(handler: RouteHandler, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const refusal = refuseMalformedTarget(req.url ?? "/", req.headers.host);
  if (refusal) return writeResponse(refusal, res);
  // A client that goes away before the response ends aborts the request (the route stops
  // generating) and the body's reader; after a complete response there is nothing to abort.
  const gone = new AbortController();
  res.once("close", () => res.writableFinished || gone.abort());
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  let response: Response;
  try {
    const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url}`, {
      method: req.method,
      headers,
      body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
      duplex: "half",
      signal: gone.signal,
    } as RequestInit);
    response = await handler(request, { params: Promise.resolve({}) });
  } catch (error) {
    // The wrapper answers every error itself; this is a bug, answered like its generic 500.
    log.error("direct route failed", { error });
    res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ detail: "Internal server error." }));
    return;
  }
  await writeResponse(response, res, gone.signal);
}

/** Sends a Web Response on a Node response, streaming its body; `gone` cancels the body's reader. */
export async function writeResponse(response: Response, res: http.ServerResponse, gone?: AbortSignal): Promise<void> {
  response.headers.forEach((value, name) => name !== "set-cookie" && res.setHeader(name, value));
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  res.writeHead(response.status);
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  gone?.addEventListener("abort", () => void reader.cancel().catch(() => undefined), { once: true });
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      if (!res.write(chunk.value)) await new Promise((resolve) => (res.once("drain", resolve), res.once("close", resolve)));
    }
  } catch {
    // The body ended early (the client went away, or the stream failed after the status was sent).
  }
  res.end();
}
