// The console's one way to call the API: same-origin fetch with the session cookie (the browser
// adds the Origin header the API's CSRF check wants), JSON in and out, and the API's error bodies
// — `{"detail": "..."}`, or a 422's `{"detail": [{loc, msg, type}]}` — turned into readable text.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** For 422s: the message of each invalid field, by its name (`body.name` → `name`). */
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

interface ValidationDetail {
  loc?: (string | number)[];
  msg?: string;
}

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** `{detail}` bodies (string or 422 list) → one message and per-field messages. */
export function describeApiError(status: number, body: unknown): ApiError {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail === "string" && detail) return new ApiError(status, detail);
  if (Array.isArray(detail) && detail.length > 0) {
    const fields: Record<string, string> = {};
    const lines = (detail as ValidationDetail[]).map((issue) => {
      const field = (issue.loc ?? []).slice(1).join(".");
      const msg = issue.msg ?? "is not valid";
      if (field) fields[field] ??= sentence(msg);
      return field ? `${field}: ${msg}` : msg;
    });
    return new ApiError(status, lines.join("; "), fields);
  }
  if (status === 401) return new ApiError(status, "Your session has expired: sign in again.");
  if (status === 403) return new ApiError(status, "You do not have permission to do this.");
  if (status === 404) return new ApiError(status, "Not found.");
  return new ApiError(status, `The server answered ${status}. Try again; if it persists, check the server log.`);
}

export interface ApiFetchOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as JSON; a FormData as multipart/form-data (file uploads). */
  body?: unknown;
  signal?: AbortSignal;
}

export async function apiFetch<T>(path: string, options: ApiFetchOptions = {}): Promise<T> {
  let response: Response;
  const multipart = options.body instanceof FormData; // the browser sets its content-type and boundary
  try {
    response = await fetch(path, {
      method: options.method ?? "GET",
      headers: options.body === undefined || multipart ? { accept: "application/json" } : { accept: "application/json", "content-type": "application/json" },
      body: options.body === undefined ? undefined : multipart ? (options.body as FormData) : JSON.stringify(options.body),
      credentials: "same-origin",
      cache: "no-store",
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new ApiError(0, "Cannot reach the Anneal server. Check that it is running and your connection.");
  }
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) throw describeApiError(response.status, body);
  return body as T;
}

/** The readable message of anything a query or mutation threw. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return "Something went wrong.";
}
