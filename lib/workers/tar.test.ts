import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MalformedTarError, readTar, writeTar } from "./tar";

describe("tar", () => {
  const files = [{ name: "job.json", data: Buffer.from('{"version":1}') }, { name: "start-adapter.zip", data: new Uint8Array(1000).map((_, i) => i % 256) }];

  it("reads back what it writes, and GNU tar lists and extracts the same files", () => {
    const tar = writeTar(files);
    expect(tar.length % 512).toBe(0);
    const back = readTar(tar, 1 << 20);
    expect([...back.keys()]).toEqual(["job.json", "start-adapter.zip"]);
    expect(Buffer.from(back.get("start-adapter.zip")!)).toEqual(Buffer.from(files[1].data));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-tar-"));
    try {
      fs.writeFileSync(path.join(dir, "a.tar"), tar);
      execFileSync("tar", ["xf", "a.tar"], { cwd: dir });
      expect(fs.readFileSync(path.join(dir, "job.json"), "utf8")).toBe('{"version":1}');
      // And it reads what GNU tar writes (a ustar with a directory entry).
      fs.mkdirSync(path.join(dir, "d"));
      fs.writeFileSync(path.join(dir, "d", "result.json"), "{}");
      execFileSync("tar", ["--format=ustar", "-cf", "b.tar", "d"], { cwd: dir });
      expect(Buffer.from(readTar(fs.readFileSync(path.join(dir, "b.tar")), 1 << 20).get("d/result.json")!).toString()).toBe("{}");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses an entry over the cap, a truncated archive and garbage", () => {
    const tar = writeTar(files);
    expect(() => readTar(tar, 999)).toThrow(MalformedTarError);
    expect(() => readTar(tar.subarray(0, 1024 + 512 + 100), 1 << 20)).toThrow(/ends inside an entry/);
    expect(() => readTar(new Uint8Array(1024).fill(1), 1 << 20)).toThrow(MalformedTarError);
  });
});
