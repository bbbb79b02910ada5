#!/usr/bin/env node
// Builds the native kernel addon (lib/engine/native → lib/engine/native/build/anneal_kernels.node)
// with the system C compiler. Never fails an install: without a compiler or Node's headers it
// prints a warning and exits 0, and the engine runs on its TypeScript kernels.
//
// The kernels are compiled twice, for the x86-64 baseline and for x86-64-v3 (AVX2 + FMA) when the
// compiler can; the addon chooses at load time from what the CPU reports, so a build copied to an
// older machine still runs. Deliberately no -ffast-math: the native kernels must agree with the
// TypeScript ones to float32 rounding.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const src = path.join(root, "lib/engine/native");
const outDir = path.join(src, "build");
const output = path.join(outDir, "anneal_kernels.node");
const cc = process.env.CC || "cc";

class Skip extends Error {}
const skip = (reason) => {
  throw new Skip(reason);
};

function run(args) {
  const r = spawnSync(cc, args, { encoding: "utf8" });
  return { ok: !r.error && r.status === 0, log: r.error ? String(r.error) : `${r.stdout}${r.stderr}` };
}

function nodeHeaders() {
  const candidates = [
    process.env.NODE_INCLUDE_DIR,
    path.join(path.dirname(process.execPath), "..", "include", "node"),
    path.join(os.homedir(), ".cache", "node-gyp", process.versions.node, "include", "node"),
    "/usr/include/node",
    "/usr/local/include/node",
  ];
  return candidates.find((dir) => dir && existsSync(path.join(dir, "node_api.h")));
}

function build(tmp) {
  if (process.platform === "win32") skip("Windows builds are not supported; use WSL");
  if (!run(["--version"]).ok) skip(`no C compiler (${cc})`);
  const headers = nodeHeaders();
  if (!headers) skip("Node's C headers (node_api.h) not found; set NODE_INCLUDE_DIR");

  // x86-64-v3 needs the -march level and __builtin_cpu_supports("x86-64-v3") for the runtime check.
  const probe = path.join(tmp, "probe.c");
  writeFileSync(probe, 'int main(void){ __builtin_cpu_init(); return !__builtin_cpu_supports("x86-64-v3"); }\n');
  const haveV3 = run(["-march=x86-64-v3", "-c", probe, "-o", path.join(tmp, "probe.o")]).ok;

  const common = ["-O3", "-fPIC", "-std=gnu11", "-Wall", "-Wno-psabi", `-I${src}`];
  const variants = [{ name: "generic", flags: [] }, ...(haveV3 ? [{ name: "x86_64_v3", flags: ["-march=x86-64-v3"] }] : [])];
  const objects = [];
  for (const v of variants) {
    const obj = path.join(tmp, `${v.name}.o`);
    const r = run([...common, ...v.flags, `-DVARIANT=${v.name}`, "-c", path.join(src, "variant.c"), "-o", obj]);
    if (!r.ok) skip(`compiling the ${v.name} kernels failed:\n${r.log}`);
    objects.push(obj);
  }
  const addonObj = path.join(tmp, "addon.o");
  const addonFlags = [...common, `-I${headers}`, "-DNODE_GYP_MODULE_NAME=anneal_kernels", ...(haveV3 ? ["-DANNEAL_HAVE_X86_64_V3"] : [])];
  const r = run([...addonFlags, "-c", path.join(src, "addon.c"), "-o", addonObj]);
  if (!r.ok) skip(`compiling the addon failed:\n${r.log}`);
  const poolObj = path.join(tmp, "pool.o");
  const p = run([...common, "-pthread", "-c", path.join(src, "pool.c"), "-o", poolObj]);
  if (!p.ok) skip(`compiling the kernel thread pool failed:\n${p.log}`);

  mkdirSync(outDir, { recursive: true });
  const linked = path.join(outDir, `.anneal_kernels.${process.pid}.node`);
  const linkFlags = process.platform === "darwin" ? ["-bundle", "-undefined", "dynamic_lookup"] : ["-shared"];
  const l = run([...linkFlags, addonObj, poolObj, ...objects, "-lm", "-pthread", "-o", linked]);
  if (!l.ok) skip(`linking failed:\n${l.log}`);

  renameSync(linked, output); // atomic: a process loading the addon never sees half a file
  return variants.map((v) => v.name);
}

const tmp = mkdtempSync(path.join(os.tmpdir(), "anneal-native-"));
try {
  const variants = build(tmp);
  console.log(`[build-native] built ${path.relative(root, output)} (${variants.join(", ")})`);
} catch (error) {
  // Anything unexpected (permissions, a full disk) must not fail the install either.
  const reason = error instanceof Skip ? error.message : String(error);
  console.warn(`[build-native] WARNING: native kernels not built (${reason}).`);
  console.warn("[build-native] Anneal will train with its TypeScript kernels, several times slower.");
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
