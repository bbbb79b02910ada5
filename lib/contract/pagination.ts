import { z } from "zod";
import { invalid } from "@/lib/contract/errors";

// Cursor pages (docs/contract.md): {object:"list", data, first_id, last_id, has_more}. `after` is an
// exclusive cursor holding an item id; the server resolves it to the item's own position, because
// ids do not sort in time.

export const pageQuerySchema = z.object({
  after: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  order: z.enum(["asc", "desc"]).default("asc"),
});

export type PageQuery = z.infer<typeof pageQuerySchema>;

export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    object: z.literal("list"),
    data: z.array(item),
    first_id: z.string(),
    last_id: z.string(),
    has_more: z.boolean(),
  });
}

export interface Page<T> {
  object: "list";
  data: T[];
  first_id: string;
  last_id: string;
  has_more: boolean;
}

/** Builds a page from up to limit+1 rows fetched in page order. */
export function toPage<T extends { id: string }>(rows: T[], limit: number): Page<T> {
  const data = rows.slice(0, limit);
  return {
    object: "list",
    data,
    first_id: data[0]?.id ?? "",
    last_id: data.at(-1)?.id ?? "",
    has_more: rows.length > limit,
  };
}

/** The 422 for an `after` that names no item of this list. */
export function unknownCursor(after: string) {
  return invalid(["query", "after"], `Unknown cursor '${after}': pass the id of an item of this list.`, "value_error");
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

type Order = "asc" | "desc";

/**
 * What every cursor page does: resolve `after` with `findCursor`, which looks the id up within the
 * caller's own rows (so another tenant's id, or one the list's filters leave out, is the 422),
 * fetch up to limit+1 rows past that cursor (none on the first page) with `findRows`, and map the
 * page's rows to DTOs. The cursor is whatever the list orders by: a row's position, its
 * (createdAt, id), or the id itself where the position is computed in the same query.
 */
export async function pageAfter<Cursor, Row extends { id: string }, Dto extends { id: string }>(options: {
  query: { after?: string; limit: number };
  findCursor: (id: string) => Promise<Cursor | null | undefined>;
  findRows: (args: { cursor: Cursor | undefined; take: number }) => Promise<Row[]>;
  toDto: (row: Row) => Dto;
}): Promise<Page<Dto>> {
  const { after, limit } = options.query;
  let cursor: Cursor | undefined;
  if (after) {
    const found = isUuid(after) ? await options.findCursor(after) : null;
    if (found === null || found === undefined) throw unknownCursor(after);
    cursor = found;
  }
  const page = toPage(await options.findRows({ cursor, take: limit + 1 }), limit);
  return { ...page, data: page.data.map(options.toDto) };
}

/** Keyset condition: the rows strictly after the cursor row in (createdAt, id) order. */
function afterCursor(cursor: { createdAt: Date; id: string }, order: Order) {
  const op = order === "asc" ? "gt" : "lt";
  return {
    OR: [{ createdAt: { [op]: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { [op]: cursor.id } }],
  };
}

export const CURSOR_SELECT = { id: true, createdAt: true } as const;

/**
 * One cursor page of rows ordered by creation. `findCursor` looks the `after` id up within the
 * caller's own rows (so another tenant's id is an unknown cursor); `findRows` applies the extra
 * `where`, `orderBy` and `take` to the caller's rows.
 */
export async function pageByCreation<Row extends { id: string }, Dto extends { id: string }>(options: {
  query: PageQuery;
  findCursor: (id: string) => Promise<{ id: string; createdAt: Date } | null>;
  findRows: (args: { where: object; orderBy: { createdAt?: Order; id?: Order }[]; take: number }) => Promise<Row[]>;
  toDto: (row: Row) => Dto;
}): Promise<Page<Dto>> {
  const { query } = options;
  return pageAfter({
    query,
    findCursor: options.findCursor,
    findRows: ({ cursor, take }) =>
      options.findRows({ where: cursor ? afterCursor(cursor, query.order) : {}, orderBy: [{ createdAt: query.order }, { id: query.order }], take }),
    toDto: options.toDto,
  });
}

/** The filter on a position column for the rows strictly after `seq` in page order. */
export type SeqAfter = { gt: number } | { lt: number };

/**
 * One cursor page of rows ordered by a unique integer position (a `seq`, a checkpoint's `step`),
 * ascending unless `query.order` says otherwise. `findSeq` returns the position of the `after` row
 * within the caller's own rows (null when it is not one of them); `findRows` fetches the caller's
 * rows with `seq` as the position column's filter (undefined on the first page, which Prisma
 * ignores), ordered by that column in `order`, at most `take`.
 */
export async function pageBySeq<Row extends { id: string }, Dto extends { id: string }>(options: {
  query: { after?: string; limit: number; order?: Order };
  findSeq: (id: string) => Promise<number | null | undefined>;
  findRows: (args: { seq: SeqAfter | undefined; order: Order; take: number }) => Promise<Row[]>;
  toDto: (row: Row) => Dto;
}): Promise<Page<Dto>> {
  const order = options.query.order ?? "asc";
  return pageAfter({
    query: options.query,
    findCursor: options.findSeq,
    findRows: ({ cursor, take }) =>
      options.findRows({ seq: cursor === undefined ? undefined : order === "asc" ? { gt: cursor } : { lt: cursor }, order, take }),
    toDto: options.toDto,
  });
}
