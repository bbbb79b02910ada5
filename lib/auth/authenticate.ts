import { createHash } from "node:crypto";
import { decode } from "next-auth/jwt";
import { getDb } from "@/lib/db/client";
import { memoAccess } from "@/lib/auth/access-cache";
import { apiKeyMatches, apiKeyPrefix, hashApiKey } from "@/lib/auth/api-key-secret";
import { clientAddress } from "@/lib/auth/client-address";
import { verifyPassword } from "@/lib/auth/password";
import { checkPasswordThrottled, type PasswordAttempt } from "@/lib/auth/password-attempts";
import type { Principal } from "@/lib/auth/principal";
import { getAuthSecret } from "@/lib/auth/secret";
import { AppError, unauthorized } from "@/lib/contract/errors";
import type { AuthScheme } from "@/lib/contract/operation";
import { textProblem } from "@/lib/contract/text";

// Three ways to prove who you are: an API key (Bearer, or Basic `api:<key>`), a username/email and
// password (Basic), and the console's next-auth session cookie.

const USER_SELECT = { id: true, username: true, email: true, isAdmin: true, passwordHash: true } as const;
const LAST_USED_WRITE_INTERVAL_MS = 60_000;

export async function authenticateApiKey(key: string): Promise<Principal | null> {
  const row = await memoAccess(`key:${hashApiKey(key)}`, () =>
    getDb().apiKey.findUnique({
      where: { prefix: apiKeyPrefix(key) },
      select: { id: true, hash: true, teamId: true, revokedAt: true, lastUsedAt: true, user: { select: USER_SELECT } },
    }),
  );
  if (!row || row.revokedAt || !apiKeyMatches(key, row.hash)) return null;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > LAST_USED_WRITE_INTERVAL_MS) {
    // Coarse on purpose: one write a minute per key, not one per request.
    row.lastUsedAt = new Date();
    void getDb()
      .apiKey.update({ where: { id: row.id }, data: { lastUsedAt: row.lastUsedAt } })
      .catch(() => undefined);
  }
  const { passwordHash: _, ...user } = row.user;
  return { user, via: "api_key", apiKey: { id: row.id, teamId: row.teamId } };
}

// Successful password checks are cached briefly, keyed by a hash of the credentials and bound to
// the stored password hash, so a changed password stops working at once. A cached check still
// passes the throttle: the right password is refused while the account must wait.
const PASSWORD_CACHE_TTL_MS = 60_000;
const PASSWORD_CACHE_MAX = 1000;
const passwordCache = new Map<string, { userId: string; passwordHash: string; expires: number }>();

/** Where a password check comes from: the client's address (null when unknown) and the path. */
export type PasswordOrigin = Omit<PasswordAttempt, "account">;

/** Throws a 429 AppError when this account or address has failed too often (password-attempts.ts). */
export async function authenticatePassword(login: string, password: string, origin: PasswordOrigin): Promise<Principal | null> {
  const db = getDb();
  const where = login.includes("@") ? { email: login.toLowerCase() } : { username: login };
  // A login the database cannot compare (NUL) names no user; it still counts as a failed attempt.
  const user = textProblem(login) ? null : await db.user.findUnique({ where, select: USER_SELECT });
  const attempt = { account: user ? { userId: user.id } : { login }, ...origin };
  const matches = await checkPasswordThrottled(attempt, async () => {
    if (!user) return false;
    const cacheKey = createHash("sha256").update(`${login}\0${password}`).digest("hex");
    const cached = passwordCache.get(cacheKey);
    if (cached && cached.expires > Date.now() && cached.userId === user.id && cached.passwordHash === user.passwordHash) return true;
    if (!(await verifyPassword(password, user.passwordHash))) return false;
    if (passwordCache.size >= PASSWORD_CACHE_MAX) passwordCache.clear();
    passwordCache.set(cacheKey, { userId: user.id, passwordHash: user.passwordHash, expires: Date.now() + PASSWORD_CACHE_TTL_MS });
    return true;
  });
  if (!user || !matches) return null;
  const { passwordHash: _, ...rest } = user;
  return { user: rest, via: "password" };
}

export const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

function readCookie(header: string | null, name: string): string | undefined {
  for (const part of header?.split(";") ?? []) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

export function hasSessionCookie(req: Request): boolean {
  const header = req.headers.get("cookie");
  return SESSION_COOKIES.some((name) => readCookie(header, name) !== undefined);
}

export async function authenticateSession(req: Request): Promise<Principal | null> {
  const header = req.headers.get("cookie");
  const token = SESSION_COOKIES.map((name) => readCookie(header, name)).find(Boolean);
  if (!token) return null;
  const jwt = await decode({ token, secret: await getAuthSecret() }).catch(() => null);
  const userId = typeof jwt?.sub === "string" ? jwt.sub : undefined;
  if (!userId) return null;
  const user = await getDb().user.findUnique({ where: { id: userId }, select: USER_SELECT });
  if (!user) return null;
  const { passwordHash: _, ...rest } = user;
  return { user: rest, via: "session" };
}

/** State-changing requests made with the session cookie must come from this origin (CSRF). */
export function assertSameOrigin(req: Request): void {
  if (["GET", "HEAD", "OPTIONS"].includes(req.method)) return;
  const origin = req.headers.get("origin");
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  let originHost: string | undefined;
  try {
    originHost = origin ? new URL(origin).host : undefined;
  } catch {
    originHost = undefined;
  }
  if (!originHost || originHost !== host) {
    throw new AppError("forbidden", "Cross-origin request refused: state-changing console requests must come from the console's own origin.");
  }
}

/**
 * Authenticates a request for a route of the given scheme. `/v1` routes take `Bearer <api key>`;
 * feedback and annotation routes take `Basic` (`api:<key>` or username/email:password). Both also
 * accept the console's session cookie. Anything else is a 401.
 */
export async function authenticate(req: Request, scheme: AuthScheme): Promise<Principal> {
  const header = req.headers.get("authorization");
  const challenge = scheme === "bearer" ? "Bearer" : "Basic";
  if (header) {
    const space = header.indexOf(" ");
    const given = (space > 0 ? header.slice(0, space) : header).toLowerCase();
    const credentials = space > 0 ? header.slice(space + 1).trim() : "";
    if (given !== scheme) {
      throw unauthorized(`This route takes 'Authorization: ${challenge} …' credentials, not '${given}'.`, challenge);
    }
    const principal = scheme === "bearer" ? await authenticateApiKey(credentials) : await authenticateBasic(credentials, clientAddress(req.headers));
    if (!principal) throw unauthorized(scheme === "bearer" ? "Invalid or revoked API key." : "Invalid username or password.", challenge);
    return principal;
  }
  if (hasSessionCookie(req)) {
    const principal = await authenticateSession(req);
    if (!principal) throw unauthorized("Your session has expired: sign in again.", challenge);
    assertSameOrigin(req);
    return principal;
  }
  throw unauthorized(
    scheme === "bearer"
      ? "Missing credentials: send 'Authorization: Bearer <API key>'."
      : "Missing credentials: send 'Authorization: Basic base64(username:password)' (or 'api:<API key>').",
    challenge,
  );
}

async function authenticateBasic(encoded: string, address: string | null): Promise<Principal | null> {
  let decoded: string;
  try {
    decoded = Buffer.from(encoded, "base64").toString("utf8");
  } catch {
    return null;
  }
  const colon = decoded.indexOf(":");
  if (colon < 0 || textProblem(decoded)) return null;
  const login = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  if (login === "api") return authenticateApiKey(password);
  return authenticatePassword(login, password, { address, via: "basic" });
}
