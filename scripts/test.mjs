// npm test: the whole suite, in order — types, unit, integration (PGlite; again on PostgreSQL when
// TEST_DATABASE_URL is set), the Python worker's tests, a production build, then Playwright e2e
// against it and (with TEST_DATABASE_URL) the scaled deployment's processes killed mid-work. Every step runs
// even after a failure, so one run shows everything that is broken; the exit code is non-zero if
// any step failed. The last line is the plain "N passed, N failed, N skipped" summary.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const results = path.join(root, ".test-results");
fs.rmSync(results, { recursive: true, force: true });
fs.mkdirSync(results, { recursive: true });
const bin = (name) => path.join(root, "node_modules", ".bin", name);

const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];
const failedTests = []; // "step › file › test: first line of the error", repeated at the end where a CI log's tail shows it

function run(name, command, args, env = {}) {
  console.log(`\n━━ ${name} ━━`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env } });
  console.log(`━━ ${name}: ${result.status === 0 ? "ok" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (result.status !== 0) failedSteps.push(name);
  return result.status === 0;
}

const firstLine = (message = "") => message.split("\n").find((line) => line.trim())?.trim().slice(0, 300) ?? "";

function countVitest(step, file) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
  for (const suite of report.testResults) {
    const where = path.relative(root, suite.name);
    const failed = suite.assertionResults.filter((test) => test.status === "failed");
    for (const test of failed) failedTests.push(`${step} › ${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    if (!failed.length && suite.status === "failed") failedTests.push(`${step} › ${where}: ${firstLine(suite.message)}`);
  }
}

function countPlaywright(step, suites) {
  for (const suite of suites ?? []) {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== "unexpected") continue;
        const error = test.results?.at(-1)?.error?.message;
        failedTests.push(`${step} › ${spec.file}:${spec.line} › ${spec.title}: ${firstLine(error)}`);
      }
    }
    countPlaywright(step, suite.suites);
  }
}

function vitest(name, project, outputName, env) {
  const output = path.join(results, `${outputName}.json`);
  run(name, bin("vitest"), ["run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile=${output}`], env);
  countVitest(name, output);
}

// The Python worker (workers/python): Debian's python3-torch runs the loss fixture and the job logic;
// its transformers + PEFT tests skip, saying why, where those do not import (unittest's -v prints it).
function pythonWorkerTests(name) {
  const python = "/usr/bin/python3";
  if (spawnSync(python, ["-c", "import torch"], { stdio: "ignore" }).status !== 0) {
    console.log(`\n━━ ${name}: skipped: ${python} cannot import torch (apt-get install python3-torch) ━━`);
    totals.skipped += 1;
    return;
  }
  console.log(`\n━━ ${name} ━━`);
  const started = Date.now();
  const result = spawnSync(python, ["-m", "unittest", "discover", "-v"], { cwd: path.join(root, "workers", "python"), encoding: "utf8" });
  process.stdout.write(result.stdout ?? "");
  process.stderr.write(result.stderr ?? "");
  const report = result.stderr ?? "";
  const count = (what) => Number(new RegExp(`${what}=(\\d+)`).exec(report)?.[1] ?? 0);
  const ran = Number(/^Ran (\d+) tests?/m.exec(report)?.[1] ?? 0);
  const [failed, skipped] = [count("failures") + count("errors"), count("skipped")];
  totals.passed += ran - failed - skipped;
  totals.failed += failed;
  totals.skipped += skipped;
  for (const [, kind, test, where] of report.matchAll(/^(FAIL|ERROR): (\S+) \((.+)\)/gm)) failedTests.push(`${name} › ${where} › ${test}: ${kind}`);
  console.log(`━━ ${name}: ${result.status === 0 ? "ok" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (result.status !== 0) failedSteps.push(name);
}

run("typecheck", bin("tsc"), ["--noEmit", "-p", "."]);
vitest("unit tests", "unit", "unit");
vitest("integration tests on PGlite", "integration", "integration-pglite", { TEST_DATABASE_URL: "" });
if (process.env.TEST_DATABASE_URL) {
  vitest("integration tests on PostgreSQL", "integration", "integration-postgres", {});
}
pythonWorkerTests("python worker tests");
if (run("production build", bin("next"), ["build"])) {
  run("e2e tests (Playwright, Chromium)", bin("playwright"), ["test"], { CI: "true" });
  const e2e = path.join(results, "e2e.json");
  if (fs.existsSync(e2e)) {
    const { stats, suites } = JSON.parse(fs.readFileSync(e2e, "utf8"));
    countPlaywright("e2e", suites);
    totals.passed += stats.expected + stats.flaky;
    totals.failed += stats.unexpected;
    totals.skipped += stats.skipped;
  }
  // Two web processes and two workers on one PostgreSQL, killed mid-work, and 3 minutes of bench:soak (tests/topology/).
  if (process.env.TEST_DATABASE_URL) vitest("topology test on PostgreSQL", "topology", "topology", {});
}

if (failedTests.length) console.log(`\nfailed tests:\n${failedTests.map((test) => `  ${test}`).join("\n")}`);
if (failedSteps.length) console.log(`\nfailed steps: ${failedSteps.join(", ")}`);
if (failedSteps.length && totals.failed === 0) totals.failed = failedSteps.length; // a step broke before its tests ran
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length ? 1 : 0);
