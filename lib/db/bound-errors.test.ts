import { afterEach, describe, expect, it } from "vitest";
import { errorResponse } from "@/lib/http/handle";
import { boundExceededError, boundHit, retryOnBound, TransactionDeadlineError } from "./bound-errors";
import { DATABASE_BOUNDS, databaseBounds } from "./bounds";

// What each driver layer throws when a bound of bounds.ts is hit (shapes as measured on PostgreSQL
// 15 through pg 8 and Prisma 7's @prisma/adapter-pg; database-bounds.int.test.ts hits them for real),
// and the 503 each becomes. Here too so they are checked on every run, PGlite's included.

/** pg's DatabaseError (raw SQL). */
process.env.ANNEAL_LOG_LEVEL ??= "error"; // the wrapper logs each bound hit as a warning

const pgError = (code: string, message: string, severity = "ERROR") => Object.assign(new Error(message), { code, severity });
/** Prisma's wrapping of it (its own code varies with the query: P2010 raw, P2039 a model query). */
const prismaError = (prismaCode: string, code: string, message: string) =>
  Object.assign(new Error(`Invalid invocation: ${message}`), {
    name: "PrismaClientKnownRequestError",
    code: prismaCode,
    meta: { driverAdapterError: { name: "DriverAdapterError", cause: { originalCode: code, originalMessage: message, kind: "postgres", code, severity: "ERROR", message } } },
  });
const p2028 = (message: string) => Object.assign(new Error(`Transaction API error: ${message}`), { name: "PrismaClientKnownRequestError", code: "P2028" });

afterEach(() => {
  delete process.env.ANNEAL_TEST_DB_BOUNDS;
});

describe("bounds", () => {
  it("are all under 30 s, and each backstop sits above what it backs up", () => {
    const { request, stats, embedded, poolCheckoutMs, retryWritesMs } = DATABASE_BOUNDS;
    for (const ms of [poolCheckoutMs, retryWritesMs, ...Object.values(request), ...Object.values(stats), ...Object.values(embedded)]) {
      expect(ms).toBeGreaterThan(0);
      expect(ms).toBeLessThan(30_000);
    }
    expect(request.transactionMs).toBeGreaterThan(request.statementMs);
    expect(request.statementMs).toBeGreaterThan(request.lockMs);
    expect(request.transactionStartMs).toBeGreaterThan(poolCheckoutMs);
    expect(stats.transactionMs).toBeGreaterThan(stats.statementMs);
  });

  it("take a test's lowered values, and refuse one of 30 s or more", () => {
    process.env.ANNEAL_TEST_DB_BOUNDS = JSON.stringify({ stats: { statementMs: 1_000 } });
    expect(databaseBounds().stats).toEqual({ statementMs: 1_000, transactionMs: DATABASE_BOUNDS.stats.transactionMs });
    expect(databaseBounds().request).toEqual(DATABASE_BOUNDS.request);
    process.env.ANNEAL_TEST_DB_BOUNDS = JSON.stringify({ request: { lockMs: 30_000 } });
    expect(() => databaseBounds()).toThrow("request.lockMs must be a whole number of ms from 1 to 29999");
    process.env.ANNEAL_TEST_DB_BOUNDS = JSON.stringify({ request: { lockMillis: 5 } });
    expect(() => databaseBounds()).toThrow("unknown bound request.lockMillis");
  });
});

describe("what each layer throws", () => {
  it.each([
    ["pg: lock_timeout", pgError("55P03", "canceling statement due to lock timeout"), { bound: "lock", limitMs: 3_000 }],
    ["Prisma: lock_timeout", prismaError("P2039", "55P03", "canceling statement due to lock timeout"), { bound: "lock", limitMs: 3_000 }],
    ["pg: statement_timeout", pgError("57014", "canceling statement due to statement timeout"), { bound: "statement", limitMs: 10_000 }],
    ["Prisma: statement_timeout", prismaError("P2010", "57014", "canceling statement due to statement timeout"), { bound: "statement", limitMs: 10_000 }],
    ["pg: cancelled by an operator", pgError("57014", "canceling statement due to user request"), { bound: "cancelled", detail: "canceling statement due to user request" }],
    ["pg: idle in transaction", pgError("25P03", "terminating connection due to idle-in-transaction timeout", "FATAL"), { bound: "idle_in_transaction", limitMs: 10_000 }],
    ["Prisma: idle in transaction", prismaError("P2010", "25P03", "terminating connection due to idle-in-transaction timeout"), { bound: "idle_in_transaction", limitMs: 10_000 }],
    ["pg-pool: no connection came free", new Error("timeout exceeded when trying to connect"), { bound: "pool", limitMs: 5_000 }],
    ["pg-pool: connecting timed out", new Error("Connection terminated due to connection timeout"), { bound: "connect", limitMs: 5_000 }],
    ["Prisma: maxWait", p2028("Unable to start a transaction in the given time."), { bound: "transaction_start" }],
    ["Prisma: expired at a query", p2028("A query cannot be executed on an expired transaction. The timeout for this transaction was 15000 ms, however 15012 ms passed since the start of the transaction. Consider increasing the interactive transaction timeout or doing less work in the transaction."), { bound: "transaction", limitMs: 15_000 }],
    ["Prisma: expired at the commit", p2028("A commit cannot be executed on an expired transaction. The timeout for this transaction was 25000 ms, however 25805 ms passed since the start of the transaction."), { bound: "transaction", limitMs: 25_000 }],
    ["Prisma's Rust engine: P2024", Object.assign(new Error("Timed out fetching a new connection from the connection pool."), { code: "P2024" }), { bound: "pool" }],
    ["our raw SQL transaction", new TransactionDeadlineError(15_000), { bound: "transaction", limitMs: 15_000 }],
  ])("%s", (_, error, hit) => {
    expect(boundHit(error)).toEqual(hit);
  });

  it.each([
    ["a unique violation", prismaError("P2002", "23505", "duplicate key value violates unique constraint")],
    ["another P2028", p2028("Transaction not found.")],
    ["a plain error", new Error("boom")],
    ["Prisma's P-code alone is no SQLSTATE", Object.assign(new Error("x"), { code: "P2010" })],
    ["not an error", "57014"],
  ])("%s is not a bound", (_, error) => {
    expect(boundHit(error)).toBeUndefined();
  });
});

describe("the answer", () => {
  it("is a 503 with Retry-After and a message naming what timed out, in the one route wrapper", async () => {
    const response = errorResponse(prismaError("P2039", "55P03", "canceling statement due to lock timeout"), {}, "req-1");
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("2");
    expect(await response.json()).toEqual({
      detail: "A database lock that this request needs was held by another session for more than 3 s (lock_timeout): its transaction was rolled back, so nothing of it was written; retry the request.",
    });
    const openai = errorResponse(new Error("timeout exceeded when trying to connect"), { openaiErrors: true }, "req-2");
    expect(openai.status).toBe(503);
    expect(openai.headers.get("retry-after")).toBe("1");
    expect((await openai.json()).error).toMatchObject({ type: "unavailable", code: 503 });
  });

  it("names a kind's own work and limit", () => {
    const error = boundExceededError(prismaError("P2010", "57014", "canceling statement due to statement timeout"), "the feedback stats query", { statement: 20_000 });
    expect(error?.message).toBe("A database statement of the feedback stats query ran past its 20 s limit (statement_timeout) and was cancelled: its transaction was rolled back, so nothing of it was written; retry the request.");
    expect(error?.headers).toEqual({ "Retry-After": "5" });
    expect(boundExceededError(p2028("Unable to start a transaction in the given time."))?.message).toBe(
      "A database transaction of this request could not start in time (every connection was busy): nothing was written; retry the request.",
    );
  });
});

describe("retryOnBound", () => {
  it("writes again after a bound, and gives up on anything else or after its time", async () => {
    let tries = 0;
    await expect(retryOnBound(async () => (++tries < 3 ? Promise.reject(pgError("55P03", "canceling statement due to lock timeout")) : "done"), 5_000)).resolves.toBe("done");
    expect(tries).toBe(3);
    tries = 0;
    await expect(retryOnBound(async () => (tries++, Promise.reject(new Error("boom"))), 5_000)).rejects.toThrow("boom");
    expect(tries).toBe(1);
    tries = 0;
    await expect(retryOnBound(async () => (tries++, Promise.reject(pgError("55P03", "lock"))), 300)).rejects.toMatchObject({ code: "55P03" });
    expect(tries).toBe(2);
  });
});
