import fs from "node:fs";
import path from "node:path";
import { dataPaths } from "@/lib/config/paths";
import { badRequest } from "@/lib/contract/errors";

// ANNEAL_MODELS_DIR, the only place a base added by API may come from: a client's path must stay under
// it, through every symbolic link. Messages name the client's own relative path, never a server path.

const MAX_FILES = 1_000;

/** The directory (created if missing) and its real path. */
function modelsDir(): { dir: string; real: string } {
  const dir = dataPaths().models;
  fs.mkdirSync(dir, { recursive: true });
  return { dir, real: fs.realpathSync(dir) };
}

const isInside = (dir: string, p: string) => {
  const relative = path.relative(dir, p);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
};

/** A file a client names (relative to ANNEAL_MODELS_DIR, or absolute inside it), checked: 400 unless it
 *  is a regular file whose real path is inside the directory. */
export function modelsDirFile(file: string): { relative: string; absolute: string } {
  const { dir, real: realDir } = modelsDir();
  const absolute = path.resolve(dir, file);
  if (!isInside(dir, absolute)) throw badRequest("The file must be under ANNEAL_MODELS_DIR: a path relative to it, without '..'.");
  const relative = path.relative(dir, absolute);
  let real: string;
  try {
    real = fs.realpathSync(absolute);
  } catch {
    throw badRequest(`There is no file '${relative}' in ANNEAL_MODELS_DIR.`);
  }
  if (!isInside(realDir, real)) throw badRequest(`'${relative}' is a symbolic link leading outside ANNEAL_MODELS_DIR: only files inside it can be added.`);
  if (!fs.statSync(real).isFile()) throw badRequest(`'${relative}' in ANNEAL_MODELS_DIR is not a file.`);
  return { relative, absolute };
}

/** Every *.gguf under ANNEAL_MODELS_DIR (relative paths, sorted), through links that stay inside it;
 *  a link leaving it is skipped. At most MAX_FILES. */
export function modelsDirGgufs(): { relative: string; absolute: string }[] {
  const { dir, real: realDir } = modelsDir();
  const found: { relative: string; absolute: string }[] = [];
  const seen = new Set<string>([realDir]);
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (found.length >= MAX_FILES) return;
      const absolute = path.join(folder, entry.name);
      let real: string;
      try {
        real = fs.realpathSync(absolute);
      } catch {
        continue; // a dangling link
      }
      if (!isInside(realDir, real)) continue;
      const stat = fs.statSync(real);
      if (stat.isDirectory()) {
        if (seen.has(real)) continue; // a link back up
        seen.add(real);
        walk(absolute);
      } else if (stat.isFile() && entry.name.toLowerCase().endsWith(".gguf")) {
        found.push({ relative: path.relative(dir, absolute), absolute });
      }
    }
  };
  walk(dir);
  return found;
}
