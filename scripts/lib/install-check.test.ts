import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkInstallation, meetsEngines } from "./install-check";

describe("meetsEngines", () => {
  it("reads ^ and >= clauses joined by ||", () => {
    const range = "^22.13.0 || >=24.0.0";
    expect(["22.13.0", "22.20.1", "24.0.0", "26.1.0"].filter((v) => meetsEngines(v, range))).toHaveLength(4);
    expect(["20.19.0", "22.12.9", "23.5.0", "21.99.99"].filter((v) => meetsEngines(v, range))).toHaveLength(0);
    expect(meetsEngines("22.2.0", "22.x")).toBe(true); // another form: not judged
  });
});

describe("checkInstallation", () => {
  let root: string;
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  function project(installed: Record<string, string>) {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-install-"));
    const write = (file: string, value: unknown) => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), JSON.stringify(value));
    };
    write("package.json", { engines: { node: "^22.13.0 || >=24.0.0" }, dependencies: { next: "16.4.6", zod: "4.6.7" }, devDependencies: { vitest: "4.1.12" } });
    write("package-lock.json", { packages: { "node_modules/next": { version: "16.4.6" }, "node_modules/zod": { version: "4.6.7" }, "node_modules/vitest": { version: "4.1.12" } } });
    for (const [name, version] of Object.entries(installed)) write(`node_modules/${name}/package.json`, { version });
  }

  it("is silent for a current install on a supported Node", () => {
    project({ next: "16.4.6", zod: "4.6.7", vitest: "4.1.12" });
    expect(checkInstallation(root, "22.13.0")).toEqual([]);
  });

  it("names an unsupported Node and packages that differ from the lock", () => {
    project({ next: "16.4.5", vitest: "4.1.12" });
    expect(checkInstallation(root, "20.19.0")).toEqual([
      "Node.js 20.19.0 is not a version the dependencies support (^22.13.0 || >=24.0.0): install one if the start fails.",
      "installed packages differ from package-lock.json (next 16.4.5, locked 16.4.6; zod missing, locked 4.6.7): run npm install.",
    ]);
  });
});
