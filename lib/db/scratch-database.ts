import pg from "pg";

// A fresh database on a PostgreSQL server, for benchmarks and tests that need one of their own
// (several processes sharing it), dropped afterwards with whatever connections are still open.

export interface ScratchDatabase {
  /** The new database's URL (the server's URL with its path replaced). */
  url: string;
  drop(): Promise<void>;
}

async function onServer(serverUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** Creates `<prefix>_<time>_<random>` on the server of `serverUrl`: empty, or a copy of the
 *  database `template` (which no one may be connected to while it is copied). */
export async function createScratchDatabase(serverUrl: string, prefix: string, { template }: { template?: string } = {}): Promise<ScratchDatabase> {
  const name = `${prefix}_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
  await onServer(serverUrl, `CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
