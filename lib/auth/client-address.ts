import { getEnv } from "@/lib/config/env";

// The client's network address, for throttling password guesses per address. A route handler
// never sees the socket, and X-Forwarded-For is whatever the client wrote unless a proxy we trust
// rewrote it (Next only fills it in when absent). So:
// - ANNEAL_TRUSTED_PROXIES=n (n ≥ 1 reverse proxies in front, each appending the address it saw):
//   the n-th X-Forwarded-For entry from the right, as Express's `trust proxy` does;
// - otherwise the peer address npm start's HTTP server stamps on every request (PEER_ADDRESS_HEADER,
//   overwriting whatever a client sent); without it, the address is unknown (null) and only the
//   per-account throttle applies.

export const PEER_ADDRESS_HEADER = "x-anneal-peer-address";

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name];
  return Array.isArray(value) ? value.join(",") : value;
}

// An IPv6 address with a zone is under 64 characters; longer is not an address a proxy wrote.
const MAX_ADDRESS_LENGTH = 64;

export function clientAddress(headers: HeaderBag): string | null {
  const hops = getEnv().ANNEAL_TRUSTED_PROXIES;
  const address = hops === 0 ? header(headers, PEER_ADDRESS_HEADER)?.trim() : forwardedFor(headers, hops);
  return address ? address.slice(0, MAX_ADDRESS_LENGTH) : null;
}

function forwardedFor(headers: HeaderBag, hops: number): string | undefined {
  const forwarded = (header(headers, "x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  // Fewer entries than trusted hops (a misconfigured proxy): the farthest one there is.
  return forwarded[Math.max(0, forwarded.length - hops)];
}
