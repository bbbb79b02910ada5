import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// PGlite has no multi-process safety: two processes on one data directory lose rows silently.
// A lock file (pid + host) is the cross-process guard; a globalThis set is the in-process one.

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: { pid: number; hostname: string; startedAt?: string },
  ) {
    super(
      `The data directory ${dir} is in use by another Anneal process (pid ${holder.pid} on ${holder.hostname}). ` +
        `Stop that process first (CLI commands that need the database must run while the server is stopped), ` +
        `or set ANNEAL_DATA_DIR to another directory.`,
    );
  }
}

interface LockHolder {
  pid: number;
  hostname: string;
  startedAt?: string;
}

const heldKey = Symbol.for("anneal.heldDataDirLocks");
const held: Set<string> = ((globalThis as Record<symbol, unknown>)[heldKey] as Set<string>) ??
  ((globalThis as Record<symbol, unknown>)[heldKey] = new Set<string>());

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(file: string): LockHolder | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as LockHolder;
  } catch {
    return undefined;
  }
}

/** Take the data directory's lock or throw DataDirLockedError. Returns the release function. */
export function acquireDataDirLock(dir: string): () => void {
  const file = path.join(dir, "anneal.lock");
  if (held.has(file)) throw new DataDirLockedError(dir, { pid: process.pid, hostname: os.hostname() });
  fs.mkdirSync(dir, { recursive: true });
  const me: LockHolder = { pid: process.pid, hostname: os.hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(me), { flag: "wx" });
      held.add(file);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held.delete(file);
        if (readHolder(file)?.pid === process.pid) fs.rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readHolder(file);
      const stale =
        holder === undefined ||
        (holder.hostname === os.hostname() && holder.pid !== process.pid && !isAlive(holder.pid));
      if (!stale) throw new DataDirLockedError(dir, holder);
      fs.rmSync(file, { force: true }); // left by a crashed process on this host
    }
  }
  throw new DataDirLockedError(dir, readHolder(file) ?? { pid: -1, hostname: "unknown" });
}
