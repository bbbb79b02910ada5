import type { Principal } from "@/lib/auth/principal";
import { SqlParams } from "@/lib/calls/sql-params";
import { pageAfter, type Page } from "@/lib/contract/pagination";
import { getDb } from "@/lib/db/client";
import { resolveQueue } from "./queue-access";
import type { ItemDto, ListItemsQuery } from "./item-schemas";
import { itemSelect, queryItems } from "./item-rows";

// GET /annotation_queues/{queue_id}/items: a cursor page of the queue's live items in the order
// asked for (order of addition, or the calls' start), each with `position_in_queue`: its 1-based
// rank in that order over the whole queue, computed before the status filters, as W&B Weave does,
// so a filtered page still says where each item stands. `after` resolves to the item's rank in the
// same statement (the rank is computed there, so the cursor stays an id).

const ORDER_KEYS = { position: (dir: string) => `i.seq ${dir}`, call_started_at: (dir: string) => `c."startedAt" ${dir}, i.seq ${dir}` };

export async function listItems(principal: Principal, queueId: string, query: ListItemsQuery): Promise<Page<ItemDto>> {
  const access = await resolveQueue(principal, queueId, "annotate");
  const params = new SqlParams();
  const queue = params.add(queueId);
  const ranked = `SELECT i.id, row_number() OVER (ORDER BY ${ORDER_KEYS[query.sort](query.order === "asc" ? "ASC" : "DESC")})::int AS position
                    FROM "AnnotationQueueItem" i JOIN "Call" c ON c.id = i."callId"
                   WHERE i."queueId" = ${queue}::uuid AND i."deletedAt" IS NULL`;
  const conditions = ["true"];
  if (query.status) conditions.push(`x.status = ANY(${params.add(query.status)}::text[])`);
  if (query.my_state) {
    const states = params.add(query.my_state.filter((s) => s !== "none"));
    conditions.push(`(x."myState" = ANY(${states}::text[])${query.my_state.includes("none") ? ` OR x."myState" IS NULL` : ""})`);
  }
  return pageAfter({
    query,
    findCursor: async (id) => ((await getDb().annotationQueueItem.count({ where: { id, queueId, deletedAt: null } })) ? id : null),
    findRows: ({ cursor, take }) => {
      if (cursor) conditions.push(`x.position > (SELECT position FROM ranked WHERE id = ${params.add(cursor)}::uuid)`);
      return queryItems(
        access,
        `WITH ranked AS (${ranked})
         SELECT * FROM (${itemSelect(access, principal.user.id, params, "r.position")} JOIN ranked r ON r.id = i.id) x
          WHERE ${conditions.join(" AND ")}
          ORDER BY x.position
          LIMIT ${params.add(take)}`,
        params,
      );
    },
    toDto: (item) => item,
  });
}
