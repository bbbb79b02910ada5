import type { RouteHandler } from "@/lib/http/handle";
import { refuseMalformedTarget } from "@/lib/http/request-target";

// Calls the app's real route handlers in-process, as npm start's server and Next would: a malformed
// target or Host is refused first (scripts/lib/serve.ts), then the URL is matched against the route
// files under app/ (dynamic segments become params), and the exported method handler runs with a
// real Request. No server, no mocks: the same code path minus the socket.

const modules = import.meta.glob<Record<string, RouteHandler>>("/app/**/route.ts");

interface RouteFile {
  file: string;
  pattern: RegExp;
  paramNames: string[];
  /** OpenAPI-style path: /v1/api-keys/{key_id} */
  path: string;
}

export const ROUTE_FILES: RouteFile[] = Object.keys(modules).map((file) => {
  const segments = file
    .replace(/^\/app/, "")
    .replace(/\/route\.ts$/, "")
    .split("/")
    .filter((s) => s && !/^\(.*\)$/.test(s));
  const paramNames: string[] = [];
  const regex = segments.map((s) => {
    const catchAll = s.match(/^\[\.\.\.(.+)\]$/);
    if (catchAll) {
      paramNames.push(`...${catchAll[1]}`);
      return "/(.+)";
    }
    const param = s.match(/^\[(.+)\]$/);
    if (param) {
      paramNames.push(param[1]);
      return "/([^/]+)";
    }
    return `/${s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
  });
  const path = `/${segments.map((s) => s.replace(/^\[(?:\.\.\.)?(.+)\]$/, "{$1}")).join("/")}`;
  return { file, pattern: new RegExp(`^${regex.join("")}/?$`), paramNames, path };
});

export async function routeMethods(route: RouteFile): Promise<string[]> {
  const module = await modules[route.file]();
  return ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) => typeof module[m] === "function");
}

export interface ApiOptions {
  body?: unknown;
  /** Sent as-is (for malformed JSON and size tests). */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
  bearer?: string;
  basic?: [string, string];
}

export const BASE_URL = "http://anneal.test";

export async function api(method: string, url: string, options: ApiOptions = {}): Promise<Response> {
  const { pathname, search } = new URL(url, BASE_URL);
  const headers: Record<string, string> = { host: new URL(BASE_URL).host, ...options.headers };
  const refusal = refuseMalformedTarget(pathname + search, headers.host);
  if (refusal) return refusal;
  // As in Next, a static segment wins over a dynamic one (/base-models/candidates over /base-models/{id}).
  const route = ROUTE_FILES.filter((r) => r.pattern.test(pathname)).sort((a, b) => a.paramNames.length - b.paramNames.length)[0];
  if (!route) return new Response(JSON.stringify({ detail: "Not Found" }), { status: 404 });
  const match = pathname.match(route.pattern)!;
  const params: Record<string, string | string[]> = {};
  route.paramNames.forEach((name, i) => {
    const value = decodeURIComponent(match[i + 1]);
    if (name.startsWith("...")) params[name.slice(3)] = value.split("/");
    else params[name] = value;
  });
  const module = await modules[route.file]();
  const handler = module[method];
  if (!handler) return new Response(null, { status: 405 });
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  if (options.basic) headers.authorization = `Basic ${Buffer.from(options.basic.join(":")).toString("base64")}`;
  let body: BodyInit | undefined = options.rawBody as BodyInit | undefined;
  // A FormData body is sent as multipart/form-data (the Request sets the boundary).
  if (options.body instanceof FormData) body = options.body;
  // Bytes are sent as they are (a binary upload), as application/octet-stream unless told.
  else if (options.body instanceof Uint8Array) {
    body = options.body as BodyInit;
    headers["content-type"] ??= "application/octet-stream";
  }
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const request = new Request(new URL(url, BASE_URL), { method, headers, body });
  return handler(request, { params: Promise.resolve(params) });
}

/** The response's JSON with its status, for whole-response assertions. */
export async function json<T = any>(response: Response | Promise<Response>): Promise<{ status: number; body: T }> {
  const r = await response;
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}
