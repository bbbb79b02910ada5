import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirLockedError } from "@/lib/db/lock";

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-lock-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe("data directory lock", () => {
  it("refuses a second holder in the same process until released", () => {
    const dir = tempDir();
    const release = acquireDataDirLock(dir);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    release();
    acquireDataDirLock(dir)();
    expect(fs.existsSync(path.join(dir, "anneal.lock"))).toBe(false);
  });

  it("refuses while another live process holds it, naming that process", async () => {
    const dir = tempDir();
    const holder = spawn(process.execPath, [
      "-e",
      `require("fs").writeFileSync(${JSON.stringify(path.join(dir, "anneal.lock"))}, JSON.stringify({pid: process.pid, hostname: require("os").hostname()})); console.log("ready"); setTimeout(() => {}, 30000);`,
    ]);
    await new Promise((resolve) => holder.stdout.once("data", resolve));
    try {
      expect(() => acquireDataDirLock(dir)).toThrow(new RegExp(`in use by another Anneal process \\(pid ${holder.pid} `));
    } finally {
      holder.kill("SIGKILL");
    }
    await new Promise((resolve) => holder.once("exit", resolve));
    // The holder died without cleaning up: its stale lock is taken over.
    const release = acquireDataDirLock(dir);
    expect(JSON.parse(fs.readFileSync(path.join(dir, "anneal.lock"), "utf8")).pid).toBe(process.pid);
    release();
  });

  it("does not take over a lock held on another host (shared volume)", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "anneal.lock"), JSON.stringify({ pid: 1, hostname: "some-other-host" }));
    expect(() => acquireDataDirLock(dir)).toThrow(/pid 1 on some-other-host/);
  });
});
