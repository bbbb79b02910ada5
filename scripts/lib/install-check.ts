import fs from "node:fs";
import path from "node:path";

// npm start's first phase: is this installation the one the project declares? Its findings are
// warnings, not failures (the start may still work), so a newcomer knows what to fix if it does not.

interface PackageJson {
  version?: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const readJson = <T>(file: string): T | undefined => (fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as T) : undefined);

/** Whether `version` meets an engines range of the forms package.json uses: `^X.Y.Z` and `>=X.Y.Z`
 *  clauses joined by `||`. A clause of another form is taken as met (not ours to judge). */
export function meetsEngines(version: string, range: string): boolean {
  const have = version.split(".").map(Number);
  return range.split("||").some((clause) => {
    const match = /^(\^|>=)\s*(\d+)\.(\d+)\.(\d+)$/.exec(clause.trim());
    if (!match) return true;
    const least = match.slice(2).map(Number);
    const atLeast = have[0] - least[0] || have[1] - least[1] || have[2] - least[2];
    return atLeast >= 0 && (match[1] === ">=" || have[0] === least[0]);
  });
}

export function checkInstallation(root: string, nodeVersion = process.versions.node): string[] {
  const pkg = readJson<PackageJson>(path.join(root, "package.json")) ?? {};
  const warnings: string[] = [];
  const range = pkg.engines?.node;
  if (range && !meetsEngines(nodeVersion, range)) {
    warnings.push(`Node.js ${nodeVersion} is not a version the dependencies support (${range}): install one if the start fails.`);
  }
  const locked = readJson<{ packages?: Record<string, { version?: string }> }>(path.join(root, "package-lock.json"))?.packages ?? {};
  const stale = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).flatMap((name) => {
    const want = locked[`node_modules/${name}`]?.version;
    const have = readJson<PackageJson>(path.join(root, "node_modules", name, "package.json"))?.version;
    return want && have !== want ? [`${name} ${have ?? "missing"}, locked ${want}`] : [];
  });
  if (stale.length) warnings.push(`installed packages differ from package-lock.json (${stale.join("; ")}): run npm install.`);
  return warnings;
}
