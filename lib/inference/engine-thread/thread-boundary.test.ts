import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The folder is the thread boundary: what the engine thread runs lives here, beside the
// thread-agnostic libraries it loads (the engine itself, logging, configuration, the error
// contract). The web server reaches in only through the client and the messages' shapes.

const ROOT = path.resolve(import.meta.dirname, "../../..");
const FOLDER = "lib/inference/engine-thread/";
const LIBRARIES = ["lib/engine/", "lib/config/", "lib/contract/", "lib/log.ts"];
const WEB_SIDE_ENTRIES = [`${FOLDER}engine-client.ts`, `${FOLDER}messages.ts`];

/** The project files a module imports at run time (`import type` and type-only names erased). */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(path.join(ROOT, file), "utf8"), ts.ScriptTarget.Latest);
  const specifiers: string[] = [];
  for (const node of source.statements) {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause && !clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) specifiers.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
      specifiers.push((node.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return specifiers.map((s) => resolve(file, s)).filter((f): f is string => f !== undefined);
}

function resolve(from: string, specifier: string): string | undefined {
  const base = specifier.startsWith("@/") ? specifier.slice(2) : specifier.startsWith(".") ? path.join(path.dirname(from), specifier) : undefined;
  if (base === undefined) return undefined; // a package
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((f) => f.endsWith("ts") && existsSync(path.join(ROOT, f)));
}

function reachable(entry: string): Set<string> {
  const seen = new Set<string>([entry]);
  for (const file of seen) for (const next of runtimeImports(file)) seen.add(next);
  return seen;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.tsx?$/.test(f) && !f.includes("node_modules"))
    .map((f) => path.join(dir, f));
}

describe("the engine thread's boundary", () => {
  it("the thread runs nothing in lib/ outside its folder but the thread-agnostic libraries", () => {
    const outside = [...reachable(`${FOLDER}engine-thread.ts`)].filter((f) => !f.startsWith(FOLDER) && !LIBRARIES.some((l) => f.startsWith(l)));
    expect(outside).toEqual([]);
  });

  it("the rest of the project runs only the client and the messages from the folder", () => {
    const crossings = ["lib", "app", "scripts", "tests", "components"]
      .flatMap(sourceFiles)
      .filter((f) => !f.startsWith(FOLDER))
      .flatMap((f) => runtimeImports(f).filter((i) => i.startsWith(FOLDER) && !WEB_SIDE_ENTRIES.includes(i)).map((i) => `${f} → ${i}`));
    expect(crossings).toEqual([]);
  });
});
