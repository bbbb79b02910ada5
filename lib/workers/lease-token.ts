import { randomBytes } from "node:crypto";
import type { WorkerPrincipal } from "@/lib/auth/principal";

// A remote lease's token is `<worker key id>.<32 random hex>`, and the job's leaseOwner is
// `remote:<token>`: the queue's owned writes (events, states, the end) then fence a stale attempt
// exactly as they fence a database worker, and a key's leases are found by their prefix.

export const LEASE_OWNER_PREFIX = "remote:";

export const newLeaseToken = (principal: WorkerPrincipal): string => `${principal.workerKey.id}.${randomBytes(16).toString("hex")}`;

export const leaseOwnerOf = (token: string): string => `${LEASE_OWNER_PREFIX}${token}`;

/** Whether the token was issued to this key (another key's token is as good as a lost one). */
export const tokenOfKey = (token: string, principal: WorkerPrincipal): boolean => token.startsWith(`${principal.workerKey.id}.`);
