import { describe, expect, it, vi } from "vitest";
import { pageAfter, pageBySeq, unknownCursor, type SeqAfter } from "./pagination";

// The cursor pagers on rows in memory: which cursor and filter reach the caller's query, what makes
// the 422, and how limit+1 rows become a page.

const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const rows = [1, 2, 3, 4, 5].map((seq) => ({ id: ID(seq), seq }));

/** pageBySeq over `rows`, as a Prisma query on a `seq` column would answer. */
function bySeq(query: { after?: string; limit: number; order?: "asc" | "desc" }) {
  const calls: { seq: SeqAfter | undefined; order: string; take: number }[] = [];
  const page = pageBySeq({
    query,
    findSeq: async (id) => rows.find((r) => r.id === id)?.seq,
    findRows: async (args) => {
      calls.push(args);
      const after = (r: { seq: number }) => !args.seq || ("gt" in args.seq ? r.seq > args.seq.gt : r.seq < args.seq.lt);
      const sorted = args.order === "asc" ? rows : [...rows].reverse();
      return sorted.filter(after).slice(0, args.take);
    },
    toDto: (r) => ({ id: r.id, n: r.seq }),
  });
  return { page, calls };
}

describe("pageBySeq", () => {
  it("asks for limit+1 rows past the cursor's position, ascending unless told otherwise", async () => {
    const first = bySeq({ limit: 2 });
    expect(await first.page).toEqual({ object: "list", data: [{ id: ID(1), n: 1 }, { id: ID(2), n: 2 }], first_id: ID(1), last_id: ID(2), has_more: true });
    expect(first.calls).toEqual([{ seq: undefined, order: "asc", take: 3 }]);

    const next = bySeq({ limit: 2, after: ID(2), order: "asc" });
    expect((await next.page).data.map((d) => d.n)).toEqual([3, 4]);
    expect(next.calls).toEqual([{ seq: { gt: 2 }, order: "asc", take: 3 }]);

    const last = bySeq({ limit: 2, after: ID(2), order: "desc" });
    expect(await last.page).toEqual({ object: "list", data: [{ id: ID(1), n: 1 }], first_id: ID(1), last_id: ID(1), has_more: false });
    expect(last.calls).toEqual([{ seq: { lt: 2 }, order: "desc", take: 3 }]);
  });

  it("answers an empty list with empty ids, and a full last page without has_more", async () => {
    expect(await bySeq({ limit: 2, after: ID(5) }).page).toEqual({ object: "list", data: [], first_id: "", last_id: "", has_more: false });
    expect(await bySeq({ limit: 5 }).page).toMatchObject({ first_id: ID(1), last_id: ID(5), has_more: false });
  });

  it("takes position 0 as a cursor, not as a missing one", async () => {
    const calls: unknown[] = [];
    await pageBySeq({ query: { limit: 1, after: ID(9) }, findSeq: async () => 0, findRows: async (args) => (calls.push(args), []), toDto: (r: { id: string }) => r });
    expect(calls).toEqual([{ seq: { gt: 0 }, order: "asc", take: 2 }]);
  });
});

describe("pageAfter", () => {
  it("is a 422 for an id that is not a uuid (without looking it up) or that the caller's rows lack", async () => {
    const findCursor = vi.fn(async (id: string) => (id === ID(1) ? id : null));
    const findRows = vi.fn(async () => rows);
    const page = (after: string) => pageAfter({ query: { after, limit: 2 }, findCursor, findRows, toDto: (r) => r });
    await expect(page("not-a-uuid")).rejects.toEqual(unknownCursor("not-a-uuid"));
    expect(findCursor).not.toHaveBeenCalled();
    await expect(page(ID(7))).rejects.toEqual(unknownCursor(ID(7)));
    expect(findRows).not.toHaveBeenCalled();
    await page(ID(1));
    expect(findRows).toHaveBeenCalledWith({ cursor: ID(1), take: 3 });
  });

  it("maps only the page's rows, not the extra one that says there is more", async () => {
    const toDto = vi.fn((r: { id: string }) => r);
    await pageAfter({ query: { limit: 2 }, findCursor: async () => null, findRows: async () => rows.slice(0, 3), toDto });
    expect(toDto.mock.calls.map(([r]) => r.id)).toEqual([ID(1), ID(2)]);
  });
});
