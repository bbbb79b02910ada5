import fs from "node:fs";

// What is read from a file's header, kept per version of the file (its mtime and size): a multi-GB
// GGUF's header costs a few hundred milliseconds, and the readers ask on every request.

export type FileVersionCache<T> = Map<string, { mtimeMs: number; size: number; value: T }>;

/** `read(path)`'s value, read again only when the file changed. */
export function readPerFileVersion<T>(cache: FileVersionCache<T>, path: string, read: () => T): T {
  const stat = fs.statSync(path);
  const known = cache.get(path);
  if (known?.mtimeMs === stat.mtimeMs && known.size === stat.size) return known.value;
  const value = read();
  cache.set(path, { mtimeMs: stat.mtimeMs, size: stat.size, value });
  return value;
}
