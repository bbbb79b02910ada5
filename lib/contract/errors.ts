// lib/contract: the REST contract's foundations every domain builds on — typed errors and their
// statuses, cursor pages, body limits, and the operation type (an endpoint's declared contract).
// It imports nothing of the project's, so lib/http (the route wrapper) and the domains depend on it
// and never on each other.

// Typed domain errors with stable codes, mapped to an HTTP status in one place (toErrorResponse).
// Domain code throws these; anything else becomes a generic 500 whose details go to the log only.

export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  validation_failed: 422,
  rate_limited: 429,
  not_implemented: 501,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ValidationIssue {
  loc: string[];
  msg: string;
  type: string;
}

// `instanceof` checks a brand rather than the class: `npm start` loads lib/ twice (its own scripts
// through tsx, the routes in Next's server bundle), and an error made by one copy — the engine
// thread's client is created by start.ts — must still be an AppError to the other's route wrapper.
const APP_ERROR = Symbol.for("anneal.AppError");
const VALIDATION_ERROR = Symbol.for("anneal.ValidationError");
const hasBrand = (value: unknown, brand: symbol) => typeof value === "object" && value !== null && brand in value;

export class AppError extends Error {
  readonly [APP_ERROR] = true;

  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, APP_ERROR);
  }

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export class ValidationError extends AppError {
  readonly [VALIDATION_ERROR] = true;

  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, VALIDATION_ERROR);
  }

  constructor(readonly issues: ValidationIssue[]) {
    super("validation_failed", issues.map((i) => `${i.loc.join(".")}: ${i.msg}`).join("; "));
  }
}

export const badRequest = (message: string) => new AppError("bad_request", message);
export const forbidden = (message = "Your role in this team does not allow this action.") =>
  new AppError("forbidden", message);
export const notFound = (message: string) => new AppError("not_found", message);
export const conflict = (message: string) => new AppError("conflict", message);
export const unauthorized = (message: string, scheme: "Bearer" | "Basic" = "Bearer") =>
  new AppError("unauthorized", message, { "WWW-Authenticate": `${scheme} realm="anneal"` });
export const invalid = (loc: string[], msg: string, type = "value_error") =>
  new ValidationError([{ loc, msg, type }]);
