// The console's sign-in reports a throttled attempt through next-auth, which passes only an error
// string from the server's authorize() to the form: this is that string's format, shared by both
// sides (the form runs in the browser, so this file imports nothing).

const RATE_LIMITED = /^RateLimited:(\d+)$/;

export function rateLimitedSignInError(retryAfterSeconds: number): string {
  return `RateLimited:${retryAfterSeconds}`;
}

/** The message the sign-in form shows for next-auth's `error`. */
export function signInErrorMessage(error: string): string {
  const limited = RATE_LIMITED.exec(error);
  if (limited) return `Too many failed attempts: try again in ${limited[1]} s.`;
  return "Wrong username, email or password.";
}
