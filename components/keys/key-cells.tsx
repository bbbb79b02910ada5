import type { ReactNode } from "react";
import { RelativeTime } from "@/components/ui/relative-time";

// What the API-key and worker-key tables show alike: a key's name (struck through once revoked),
// its public prefix, and its revocation or the button that revokes it.

export function KeyName({ name, revoked }: { name: string; revoked: boolean }) {
  return <span className={revoked ? "text-zinc-400 line-through" : ""}>{name}</span>;
}

export function KeyPrefix({ prefix }: { prefix: string }) {
  return <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-700">{prefix}…</code>;
}

/** "Revoked 3 days ago", or `revoke` (the button) while the key is live. */
export function KeyRevocation({ revokedAt, revoke }: { revokedAt: string | null; revoke: ReactNode }) {
  if (!revokedAt) return revoke;
  return (
    <span className="text-xs text-zinc-500">
      Revoked <RelativeTime iso={revokedAt} />
    </span>
  );
}
