import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

// An API key is `ank_` + 8 characters of public id + 40 of secret (base62, ~238 bits of entropy).
// The first 12 characters are its indexed prefix (found without a slow hash); the database keeps
// only SHA-256 of the whole key, which is safe because the secret is high-entropy.

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const KEY_PREFIX_LENGTH = 12;

function base62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62]; // 248 = 4·62: unbiased
    }
  }
  return out;
}

export function generateApiKey(): string {
  return `ank_${base62(8)}${base62(40)}`;
}

/** A worker key (docs/workers.md) has the same shape with its own prefix: `awk-`. Its 12-character
 *  prefix finds it in WorkerKey, never in ApiKey, so each kind of key is unknown where the other works. */
export function generateWorkerKey(): string {
  return `awk-${base62(8)}${base62(40)}`;
}

export function apiKeyPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX_LENGTH);
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function apiKeyMatches(key: string, storedHash: string): boolean {
  const a = Buffer.from(hashApiKey(key), "hex");
  const b = Buffer.from(storedHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}
