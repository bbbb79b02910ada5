import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { authenticate } from "@/lib/auth/authenticate";
import type { Principal, WorkerPrincipal } from "@/lib/auth/principal";
import { authenticateWorker } from "@/lib/workers/authenticate-worker";
import { DEFAULT_BODY_LIMIT } from "@/lib/contract/body-limits";
import { readBodyBytes, readBodyText } from "@/lib/http/body";
import { AppError, ValidationError, forbidden } from "@/lib/contract/errors";
import { boundExceededError } from "@/lib/db/bound-errors";
import { parseJsonBody } from "@/lib/http/json";
import { readMultipartBody } from "@/lib/http/multipart";
import { checkRequestValues } from "@/lib/http/request-values";
import { log } from "@/lib/log";
import type { Operation } from "@/lib/contract/operation";
import { toValidationIssues } from "@/lib/http/validation";

// The one route wrapper: authentication, parsing of path/query/body against the operation's zod
// schemas (→ 422 `detail`), body limits (→ 413), typed errors (→ status + `{"detail": "..."}`),
// a database bound hit (lib/db/bounds.ts: a statement, lock wait, idle or whole transaction, or the
// wait for a connection) → 503 with Retry-After saying what timed out, and a generic 500 (details
// logged, never sent) for anything unexpected.

type Parts<O> = O extends Operation<infer P, infer Q, infer B, infer R> ? { P: P; Q: Q; B: B; R: R } : never;

export interface HandlerContext<O extends Operation> {
  req: Request;
  principal: O["auth"] extends "public" ? Principal | undefined : O["auth"] extends "worker" ? WorkerPrincipal : Principal;
  params: z.output<Parts<O>["P"]>;
  query: z.output<Parts<O>["Q"]>;
  body: z.output<Parts<O>["B"]>;
  requestId: string;
}

type HandlerResult<O extends Operation> = Response | z.input<Parts<O>["R"]>;

export type RouteHandler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

function parse<S extends z.ZodType>(schema: S | undefined, source: string, input: unknown): z.output<S> | undefined {
  if (!schema) return undefined;
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(toValidationIssues(source, result.error, input));
  return result.data;
}

function queryObject(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    out[key] = values.length === 1 ? values[0] : values;
  }
  return out;
}

async function readBody(req: Request, operation: Operation): Promise<unknown> {
  if (operation.bodyKind === "multipart") {
    return checkRequestValues("body", await readMultipartBody(req, operation.bodyLimit ?? DEFAULT_BODY_LIMIT));
  }
  if (operation.bodyKind === "binary") return readBodyBytes(req, operation.bodyLimit ?? DEFAULT_BODY_LIMIT);
  const text = await readBodyText(req, operation.bodyLimit ?? DEFAULT_BODY_LIMIT);
  if (text.trim() === "") return undefined;
  return checkRequestValues("body", parseJsonBody(text, operation.nonStandardJson ?? false), { dropNulls: true, keepNullsIn: operation.keepNullsIn });
}

export function errorResponse(error: unknown, operation: Pick<Operation, "openaiErrors">, requestId: string): Response {
  const headers: Record<string, string> = { "x-request-id": requestId };
  if (error instanceof ValidationError) {
    const body: Record<string, unknown> = { detail: error.issues };
    if (operation.openaiErrors) {
      body.error = { message: error.message, type: "BadRequestError", param: error.issues[0]?.loc.slice(1).join(".") ?? null, code: 422 };
    }
    return Response.json(body, { status: 422, headers });
  }
  if (error instanceof AppError) {
    const body: Record<string, unknown> = { detail: error.message };
    if (operation.openaiErrors) body.error = { message: error.message, type: error.code, param: null, code: error.status };
    return Response.json(body, { status: error.status, headers: { ...headers, ...error.headers } });
  }
  if ((error as { code?: unknown })?.code === "P2002") {
    // A unique constraint hit by a concurrent request that created the same thing first.
    return errorResponse(new AppError("conflict", "A concurrent request created the same resource; retry to get it."), operation, requestId);
  }
  const bound = boundExceededError(error);
  if (bound) {
    log.warn("database bound hit", { requestId, detail: bound.message, error });
    return errorResponse(bound, operation, requestId);
  }
  log.error("unhandled error", { requestId, error });
  const message = `Internal server error (request ${requestId}); the details are in the server log.`;
  const body: Record<string, unknown> = { detail: message };
  if (operation.openaiErrors) body.error = { message, type: "InternalServerError", param: null, code: 500 };
  return Response.json(body, { status: 500, headers });
}

export function handle<O extends Operation>(
  operation: O,
  handler: (ctx: HandlerContext<O>) => Promise<HandlerResult<O>>,
): RouteHandler {
  return async (req, routeContext) => {
    const requestId = req.headers.get("x-request-id") ?? randomUUID();
    try {
      const principal =
        operation.auth === "public" ? undefined : operation.auth === "worker" ? await authenticateWorker(req) : await authenticate(req, operation.auth);
      if (operation.instanceAdmin && !(principal && "user" in principal && principal.user.isAdmin)) {
        throw forbidden("Only an administrator of this Anneal instance can do this.");
      }
      const params = parse(operation.params, "path", checkRequestValues("path", (await routeContext?.params) ?? {}));
      const query = parse(operation.query, "query", checkRequestValues("query", queryObject(new URL(req.url))));
      const rawBody = operation.body ? await readBody(req, operation) : undefined;
      const body = parse(operation.body, "body", rawBody ?? {});
      const result = await handler({ req, principal, params, query, body, requestId } as HandlerContext<O>);
      if (result instanceof Response) return result;
      return Response.json(result ?? {}, { status: operation.status ?? 200, headers: { "x-request-id": requestId } });
    } catch (error) {
      return errorResponse(error, operation, requestId);
    }
  };
}
