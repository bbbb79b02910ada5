import { memoAccess } from "@/lib/auth/access-cache";
import { apiKeyMatches, apiKeyPrefix, hashApiKey } from "@/lib/auth/api-key-secret";
import type { WorkerPrincipal } from "@/lib/auth/principal";
import { unauthorized } from "@/lib/contract/errors";
import { getDb } from "@/lib/db/client";

// The /v1/workers routes take a worker key (`Authorization: Bearer awk-…`) and nothing else: a user's
// API key, a password or a console session is a 401 here, as a worker key is everywhere else (its
// prefix is in no ApiKey row). A revoked key is a 401 at once: revoking clears every process's memo.

export async function authenticateWorker(req: Request): Promise<WorkerPrincipal> {
  const header = req.headers.get("authorization");
  if (!header) throw unauthorized("Missing credentials: send 'Authorization: Bearer <worker key>' (awk-…; POST /v1/preview/worker-keys creates one).");
  const space = header.indexOf(" ");
  const scheme = (space > 0 ? header.slice(0, space) : header).toLowerCase();
  const key = space > 0 ? header.slice(space + 1).trim() : "";
  if (scheme !== "bearer") throw unauthorized(`This route takes 'Authorization: Bearer <worker key>', not '${scheme}'.`);
  const row = key.startsWith("awk-")
    ? await memoAccess(`worker-key:${hashApiKey(key)}`, () =>
        getDb().workerKey.findUnique({ where: { prefix: apiKeyPrefix(key) }, select: { id: true, hash: true, teamId: true, revokedAt: true } }),
      )
    : null;
  if (!row || row.revokedAt || !apiKeyMatches(key, row.hash)) throw unauthorized("Invalid or revoked worker key: the /v1/workers routes take a worker key (awk-…), not a user's API key.");
  return { workerKey: { id: row.id, teamId: row.teamId } };
}
