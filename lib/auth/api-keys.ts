import { ACCESS_CHANGED_SQL, clearAccessCache } from "@/lib/auth/access-cache";
import { getDb } from "@/lib/db/client";
import { apiKeyPrefix, generateApiKey, hashApiKey } from "@/lib/auth/api-key-secret";
import type { Principal } from "@/lib/auth/principal";
import type { ApiKeyDto } from "@/lib/auth/schemas";
import { resolveTeamAccess } from "@/lib/auth/team-access";
import { conflict, notFound } from "@/lib/contract/errors";
import { CURSOR_SELECT, pageByCreation, type PageQuery } from "@/lib/contract/pagination";

// A user's API keys: created (the secret shown once), listed, revoked. A key acts with its
// owner's role; a team-scoped key only in that team, and it can only mint keys for that team.

const KEY_SELECT = {
  id: true,
  name: true,
  prefix: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
  team: { select: { name: true } },
} as const;

type KeyRow = {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  team: { name: string } | null;
};

function toApiKeyDto(k: KeyRow): ApiKeyDto {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    team: k.team?.name ?? null,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    revoked_at: k.revokedAt?.toISOString() ?? null,
  };
}

export async function createApiKey(principal: Principal, input: { name: string; team?: string }) {
  const scope = principal.apiKey?.teamId ?? null;
  let teamId: string | null = scope;
  if (input.team) teamId = (await resolveTeamAccess(principal, input.team, "annotate")).team.id;
  const key = generateApiKey();
  const row = await getDb().apiKey.create({
    data: { userId: principal.user.id, teamId, name: input.name, prefix: apiKeyPrefix(key), hash: hashApiKey(key) },
    select: KEY_SELECT,
  });
  return { ...toApiKeyDto(row), key };
}

export async function listApiKeys(principal: Principal, query: PageQuery & { include_revoked: boolean }) {
  const db = getDb();
  const mine = { userId: principal.user.id, ...(query.include_revoked ? {} : { revokedAt: null }) };
  return pageByCreation({
    query,
    findCursor: (id) => db.apiKey.findFirst({ where: { id, userId: principal.user.id }, select: CURSOR_SELECT }),
    findRows: ({ where, ...rest }) => db.apiKey.findMany({ where: { AND: [mine, where] }, select: KEY_SELECT, ...rest }),
    toDto: toApiKeyDto,
  });
}

/** Revokes one of the caller's keys; revoking a revoked key again is a no-op. */
export async function revokeApiKey(principal: Principal, keyId: string) {
  const db = getDb();
  const key = await db.apiKey.findFirst({ where: { id: keyId, userId: principal.user.id }, select: { id: true } });
  if (!key) throw notFound(`API key '${keyId}' not found.`);
  await db.$transaction([
    db.apiKey.updateMany({ where: { id: keyId, revokedAt: null }, data: { revokedAt: new Date() } }),
    db.$executeRawUnsafe(ACCESS_CHANGED_SQL), // every web process forgets the key when this commits
  ]);
  clearAccessCache();
  return toApiKeyDto(await db.apiKey.findUniqueOrThrow({ where: { id: keyId }, select: KEY_SELECT }));
}

/**
 * Headless initialisation: makes sure `secret` (ANNEAL_INIT_API_KEY) is a live key of `userId`.
 * The same secret on every start is idempotent; a secret whose prefix belongs to someone else's
 * key is refused.
 */
export async function ensureApiKey(userId: string, secret: string, name: string): Promise<"created" | "exists"> {
  const db = getDb();
  const prefix = apiKeyPrefix(secret);
  const existing = await db.apiKey.findUnique({ where: { prefix }, select: { userId: true, hash: true } });
  if (existing) {
    if (existing.userId !== userId || existing.hash !== hashApiKey(secret)) {
      throw conflict("ANNEAL_INIT_API_KEY shares its first 12 characters with another key; choose a different random secret.");
    }
    await db.apiKey.update({ where: { prefix }, data: { revokedAt: null } });
    clearAccessCache();
    return "exists";
  }
  await db.apiKey.create({ data: { userId, name, prefix, hash: hashApiKey(secret) } });
  return "created";
}
