import type { Role } from "@/lib/db/generated/enums";

// Who is calling: the authenticated user and how they proved it. Every domain function that
// touches tenant data takes a Principal (or a team resolved from one) explicitly.

export interface Principal {
  user: { id: string; username: string; email: string; isAdmin: boolean };
  via: "api_key" | "password" | "session";
  /** Set when authenticated by an API key; teamId null means every team of the owner. */
  apiKey?: { id: string; teamId: string | null };
}

/** A remote training worker, authenticated by a worker key (docs/workers.md): it acts on the jobs
 *  it leases, not as a user. teamId null: the key takes any team's jobs. */
export interface WorkerPrincipal {
  workerKey: { id: string; teamId: string | null };
}

export type { Role };

/** What a role may do in a team (docs/contract.md "Identity, roles, auth"). */
export type Capability = "annotate" | "use" | "manage";

const CAPABILITIES: Record<Role, readonly Capability[]> = {
  admin: ["annotate", "use", "manage"],
  member: ["annotate", "use"],
  annotator: ["annotate"],
};

export function roleAllows(role: Role, capability: Capability): boolean {
  return CAPABILITIES[role].includes(capability);
}
