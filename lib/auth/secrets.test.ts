import { describe, expect, it } from "vitest";
import { apiKeyMatches, apiKeyPrefix, generateApiKey, hashApiKey } from "@/lib/auth/api-key-secret";
import { hashPassword, verifyPassword } from "@/lib/auth/password";

describe("API key secrets", () => {
  it("are unique, base62, and only their hash is compared", () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
    const key = [...keys][0];
    expect(key).toMatch(/^ank_[0-9A-Za-z]{48}$/);
    expect(apiKeyPrefix(key)).toBe(key.slice(0, 12));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(apiKeyMatches(key, hashApiKey(key))).toBe(true);
    expect(apiKeyMatches(`${key}x`, hashApiKey(key))).toBe(false);
  });
});

describe("passwords", () => {
  it("hash with a salt and verify", async () => {
    const a = await hashPassword("correct horse");
    const b = await hashPassword("correct horse");
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword("correct horse", a)).toBe(true);
    expect(await verifyPassword("correct horse!", a)).toBe(false);
    expect(await verifyPassword("x", "not-a-hash")).toBe(false);
  });
});
