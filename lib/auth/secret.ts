import { randomBytes } from "node:crypto";
import { getEnv } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";

// The key that signs console sessions: NEXTAUTH_SECRET when set, else one generated on first use
// and kept in the database, so every web process of an instance shares it without configuration.

const SETTING_KEY = "nextauth_secret";
let cached: string | undefined;

export async function getAuthSecret(): Promise<string> {
  if (cached) return cached;
  const configured = getEnv().NEXTAUTH_SECRET;
  if (configured) return (cached = configured);
  const db = getDb();
  // ON CONFLICT DO NOTHING: the first concurrent requests of a new instance agree on one secret.
  await db.instanceSetting.createMany({ data: [{ key: SETTING_KEY, value: randomBytes(32).toString("base64url") }], skipDuplicates: true });
  const row = await db.instanceSetting.findUniqueOrThrow({ where: { key: SETTING_KEY } });
  return (cached = row.value);
}
