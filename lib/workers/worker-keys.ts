import { ACCESS_CHANGED_SQL, clearAccessCache } from "@/lib/auth/access-cache";
import { apiKeyPrefix, generateWorkerKey, hashApiKey } from "@/lib/auth/api-key-secret";
import type { Principal } from "@/lib/auth/principal";
import { notFound } from "@/lib/contract/errors";
import { getDb } from "@/lib/db/client";
import type { Capabilities, WorkerKeyDto } from "./schemas";
import { LEASE_OWNER_PREFIX } from "./lease-token";
import type { ProbeResults } from "./probe-results";

// Worker keys (docs/workers.md "Worker keys"): an instance admin creates one (the secret shown
// once, its hash kept), lists them with their live workers, and revokes one — which also ends its
// leases' hold at once (they expire now), so other workers take the jobs over.

const LIVE_LIST_MS = 5 * 60_000;

const KEY_SELECT = {
  id: true, name: true, prefix: true, createdAt: true, revokedAt: true,
  team: { select: { name: true } },
  workers: { select: { instance: true, capabilities: true, probes: true, lastSeenAt: true }, orderBy: { lastSeenAt: "desc" as const } },
} as const;

type KeyRow = {
  id: string; name: string; prefix: string; createdAt: Date; revokedAt: Date | null; team: { name: string } | null;
  workers: { instance: string; capabilities: unknown; probes: unknown; lastSeenAt: Date }[];
};

function toDto(k: KeyRow): WorkerKeyDto {
  const since = Date.now() - LIVE_LIST_MS;
  return {
    id: k.id, name: k.name, prefix: k.prefix, team: k.team?.name ?? null,
    created_at: k.createdAt.toISOString(), revoked_at: k.revokedAt?.toISOString() ?? null,
    last_seen_at: k.workers[0]?.lastSeenAt.toISOString() ?? null, // the newest first
    workers: k.workers
      .filter((w) => w.lastSeenAt.getTime() >= since)
      .map((w) => ({ instance: w.instance, capabilities: w.capabilities as Capabilities, probes: w.probes as ProbeResults, last_seen_at: w.lastSeenAt.toISOString() })),
  };
}

export async function createWorkerKey(principal: Principal, input: { name: string; team?: string | null }) {
  const db = getDb();
  let teamId: string | null = null;
  if (input.team) {
    const team = await db.team.findUnique({ where: { name: input.team }, select: { id: true } });
    if (!team) throw notFound(`Team '${input.team}' not found.`);
    teamId = team.id;
  }
  const key = generateWorkerKey();
  const row = await db.workerKey.create({
    data: { name: input.name, teamId, createdById: principal.user.id, prefix: apiKeyPrefix(key), hash: hashApiKey(key) },
    select: KEY_SELECT,
  });
  return { ...toDto(row), key };
}

export async function listWorkerKeys() {
  const rows = await getDb().workerKey.findMany({ select: KEY_SELECT, orderBy: { createdAt: "asc" } });
  return { data: rows.map(toDto) };
}

/** Revokes a key (again: a no-op); its running leases expire now, for other workers to take over. */
export async function revokeWorkerKey(keyId: string) {
  const db = getDb();
  const key = await db.workerKey.findUnique({ where: { id: keyId }, select: { id: true } });
  if (!key) throw notFound(`Worker key '${keyId}' not found.`);
  await db.$transaction([
    db.workerKey.updateMany({ where: { id: keyId, revokedAt: null }, data: { revokedAt: new Date() } }),
    db.trainingJob.updateMany({
      where: { status: "running", leaseOwner: { startsWith: `${LEASE_OWNER_PREFIX}${keyId}.` } },
      data: { leaseExpiresAt: new Date() },
    }),
    db.$executeRawUnsafe(ACCESS_CHANGED_SQL), // every web process forgets the key when this commits
  ]);
  clearAccessCache();
  return toDto(await db.workerKey.findUniqueOrThrow({ where: { id: keyId }, select: KEY_SELECT }));
}
