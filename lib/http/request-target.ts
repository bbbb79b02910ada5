import { randomUUID } from "node:crypto";
import { ALL_OPERATIONS } from "@/lib/api/operations";
import { invalid, type ValidationError } from "@/lib/contract/errors";
import { errorResponse } from "@/lib/http/handle";

// The request line and Host header, checked before any router sees them. A percent-escape that
// does not decode (`%ZZ`, a truncated `%E0%A4%A`, an encoded lone surrogate `%ED%A0%80`) makes
// Next's router answer a plain-text 500, and a Host that is not a host (`Host: a b`) makes the
// request's URL unbuildable; both are the client's malformed input: 422 at `path.<param>` or
// `header.host`. Console pages get the same status as plain text.

const API_PREFIXES = ["/v1/", "/feedback/", "/annotation_queues/", "/api/"];

const TEMPLATES = ALL_OPERATIONS.map((operation) => ({ operation, parts: operation.path.split("/") }));

/** An operation whose path template matches these raw segments (any method: only the shape counts). */
function matchingTemplate(segments: string[]) {
  return TEMPLATES.find(({ parts }) => parts.length === segments.length && parts.every((part, i) => part.startsWith("{") || part === segments[i]));
}

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

function targetError(segments: string[], host: string | undefined): ValidationError | undefined {
  if (host !== undefined && !URL.canParse(`http://${host}/`)) {
    return invalid(["header", "host"], "The Host header is not a valid host[:port].", "value_error");
  }
  const bad = segments.findIndex((segment) => !decodes(segment));
  if (bad < 0) return undefined;
  const part = matchingTemplate(segments)?.parts[bad];
  const loc = part?.startsWith("{") ? ["path", part.slice(1, -1)] : ["path"];
  return invalid(loc, "Malformed percent-escape in the URL path: it does not decode to UTF-8 text.", "value_error");
}

/**
 * The answer to a request whose target or Host is malformed, or undefined when both are sound.
 * `target` is the raw request target (`/v1/x/%ZZ?a=b`), `host` the raw Host header.
 */
export function refuseMalformedTarget(target: string, host: string | undefined): Response | undefined {
  const path = target.split("?", 1)[0];
  const segments = path.split("/");
  const error = targetError(segments, host);
  if (!error) return undefined;
  if (!API_PREFIXES.some((prefix) => `${path}/`.startsWith(prefix))) {
    return new Response(`Bad request: ${error.message}\n`, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  return errorResponse(error, { openaiErrors: matchingTemplate(segments)?.operation.openaiErrors }, randomUUID());
}
