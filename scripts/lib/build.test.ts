import { describe, expect, it, vi } from "vitest";
import { runWithHeartbeat } from "./build";

// The build's heartbeat: a line for each interval in which the build printed nothing.

const node = (script: string) => [process.execPath, ["-e", script]] as const;

describe("runWithHeartbeat", () => {
  it("beats while the command is quiet, not while it prints, and returns its exit code", async () => {
    const beats: number[] = [];
    const printed: number[] = [];
    const write = vi.spyOn(process.stdout, "write").mockImplementation(() => (printed.push(performance.now()), true));
    // Quiet for 1.5 s, then prints every 20 ms for 1.5 s, then exits 3.
    const [command, args] = node("setTimeout(() => { setInterval(() => process.stdout.write('.'), 20); setTimeout(() => process.exit(3), 1500); }, 1500)");
    const code = await runWithHeartbeat(command, [...args], { cwd: process.cwd(), env: process.env, heartbeatMs: 300, onQuiet: () => beats.push(performance.now()) });
    write.mockRestore();
    expect(code).toBe(3);
    const [firstPrint, lastPrint] = [printed[0], printed.at(-1)!];
    expect(beats.filter((t) => t < firstPrint).length).toBeGreaterThanOrEqual(4);
    // A quiet command would have beaten ~5 times meanwhile (one stall of the loaded machine may beat once).
    expect(beats.filter((t) => t > firstPrint + 300 && t < lastPrint).length).toBeLessThanOrEqual(1);
  });

  it("rejects when the command cannot start", async () => {
    await expect(runWithHeartbeat("/nonexistent/command", [], { cwd: process.cwd(), env: process.env, heartbeatMs: 1000, onQuiet: () => undefined })).rejects.toThrow(/ENOENT/);
  });
});
