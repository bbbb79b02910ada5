import { afterEach, describe, expect, it } from "vitest";
import { clientAddress, PEER_ADDRESS_HEADER } from "@/lib/auth/client-address";
import { resetEnvCache } from "@/lib/config/env";

function withTrustedProxies(value: string | undefined) {
  if (value === undefined) delete process.env.ANNEAL_TRUSTED_PROXIES;
  else process.env.ANNEAL_TRUSTED_PROXIES = value;
  resetEnvCache();
}

afterEach(() => withTrustedProxies(undefined));

describe("clientAddress", () => {
  it("without trusted proxies: the peer address npm start's server stamped, never X-Forwarded-For", () => {
    withTrustedProxies(undefined);
    expect(clientAddress(new Headers({ [PEER_ADDRESS_HEADER]: "192.0.2.1", "x-forwarded-for": "198.51.100.7" }))).toBe("192.0.2.1");
    expect(clientAddress(new Headers({ "x-forwarded-for": "198.51.100.7" }))).toBeNull();
    expect(clientAddress({})).toBeNull();
  });

  it("behind n trusted proxies: the n-th X-Forwarded-For entry from the right, whatever the client prepended", () => {
    withTrustedProxies("1");
    const forwarded = { "x-forwarded-for": "203.0.113.66, 198.51.100.7", [PEER_ADDRESS_HEADER]: "10.0.0.2" };
    expect(clientAddress(new Headers(forwarded))).toBe("198.51.100.7");
    expect(clientAddress(forwarded)).toBe("198.51.100.7"); // next-auth passes headers as an object
    withTrustedProxies("2");
    expect(clientAddress(new Headers({ "x-forwarded-for": "203.0.113.66,198.51.100.7 , 10.0.0.9" }))).toBe("198.51.100.7");
    expect(clientAddress(new Headers({ "x-forwarded-for": "198.51.100.7" }))).toBe("198.51.100.7");
    expect(clientAddress(new Headers())).toBeNull();
  });

  it("cuts what cannot be an address", () => {
    withTrustedProxies("1");
    expect(clientAddress(new Headers({ "x-forwarded-for": "x".repeat(10_000) }))).toHaveLength(64);
  });
});
