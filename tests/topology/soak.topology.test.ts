import { describe, expect, it } from "vitest";
import { buildIsCurrent } from "../../scripts/lib/build";
import { runSoak } from "../../scripts/lib/soak";

// bench:soak, short: three minutes of users' load on two web processes and two workers while one of
// them is SIGKILLed and restarted every 45 s. A modest load (a third of what the probe finds) so it
// passes on a busy 2-core CI machine; every check of the long run must hold (memory growth is only
// judged on longer runs).

const SERVER_URL = process.env.TEST_DATABASE_URL;

describe.skipIf(!SERVER_URL)("bench:soak for three minutes, a process killed every 45 s", () => {
  it("loses nothing acknowledged, leaves no job stuck, answers no 500 and hangs no request", async () => {
    if (!buildIsCurrent(process.cwd())) throw new Error("The topology test serves the production build: run `npx next build` first (npm test does).");
    const lines: string[] = [];
    const report = await runSoak({
      serverUrl: SERVER_URL!,
      minutes: 3,
      killSeconds: 45,
      loadShare: 0.35,
      probeSeconds: 10,
      jobEverySeconds: 45,
      drainSeconds: 180,
      annotators: 20,
      log: (line) => lines.push(line),
    });
    console.log([...lines, ...report.checks.map((c) => `${c.ok ? "ok  " : "FAIL"} ${c.what}`)].join("\n"));
    expect(report.kills.length, lines.join("\n")).toBeGreaterThanOrEqual(2);
    expect(report.checks.filter((c) => !c.ok), lines.join("\n")).toEqual([]);
    expect(report.acknowledged.calls).toBeGreaterThan(0);
    expect(report.acknowledged.submissions).toBeGreaterThan(0);
  }, 15 * 60_000);
});
