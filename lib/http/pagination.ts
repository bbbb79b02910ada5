import { z } from "zod";
import { invalid } from "@/lib/http/errors";

// Cursor pages (contract.md): {object:"list", data, first_id, last_id, has_more}. `after` is an
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

/**
 * Keyset condition for rows ordered by (createdAt, id): the rows strictly after the cursor row
 * in the requested order.
 */
export function afterCursor(cursor: { createdAt: Date; id: string }, order: "asc" | "desc") {
  const op = order === "asc" ? "gt" : "lt";
  return {
    OR: [{ createdAt: { [op]: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { [op]: cursor.id } }],
  };
}
