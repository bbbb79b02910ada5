import type { z } from "zod";

// An operation is one endpoint's contract: method, path, auth, and the zod schemas of its path,
// query, body and response. Route handlers bind a domain function to an operation (lib/http/handle);
// the OpenAPI document and the auth-matrix test are generated from the same list.

/** How a route authenticates its caller: API key as Bearer, or Basic (username:password or api:<key>). */
export type AuthScheme = "bearer" | "basic";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Operation<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  id: string;
  method: HttpMethod;
  /** OpenAPI-style path: `/v1/api-keys/{key_id}`. */
  path: string;
  summary: string;
  tag: string;
  /** `public` routes need no credentials (docs/contract.md lists them); `worker` routes take a
   *  worker key (`Bearer awk-…`, docs/workers.md) and nothing else. */
  auth: "public" | AuthScheme | "worker";
  /** Only operators of the instance (User.isAdmin) may call it. */
  instanceAdmin?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  response?: R;
  /** Success status (default 200). */
  status?: number;
  /** Body size limit in bytes (default 1 MiB). */
  bodyLimit?: number;
  /** How the body is read: JSON (default), a multipart/form-data upload, whose fields (File
   *  objects for file parts, strings otherwise) are what `body` validates, or raw bytes (a
   *  Uint8Array, validated by `body`) of one of `binaryTypes`. */
  bodyKind?: "json" | "multipart" | "binary";
  /** A binary body's content types, as the OpenAPI document lists them. */
  binaryTypes?: readonly string[];
  /** Accept NaN/Infinity/-Infinity literals in the JSON body (as missing values). */
  nonStandardJson?: boolean;
  /** Top-level body fields holding the client's own JSON, where null is a value: "null means
   *  default" (null object fields dropped before validation) does not apply under them. */
  keepNullsIn?: readonly string[];
  /** Also send errors in OpenAI's `{"error": {...}}` envelope (chat completions). */
  openaiErrors?: boolean;
}

/** Keeps the operation's auth as its literal, so a handler's principal has that scheme's type. */
export function defineOperation<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType, A extends Operation["auth"]>(
  operation: Operation<P, Q, B, R> & { auth: A },
): Operation<P, Q, B, R> & { auth: A } {
  return operation;
}
