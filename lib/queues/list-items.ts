import type { Principal } from "@/lib/auth/principal";
import { roleAllows } from "@/lib/auth/principal";
import { cut, INPUT_TEXT, OUTPUT_TEXT } from "@/lib/calls/list-calls";
import { SqlParams } from "@/lib/calls/sql-params";
import { pageAfter, type Page } from "@/lib/contract/pagination";
import { getDb, getDatabase } from "@/lib/db/client";
import { ANNOTATION_PREFIX, NOTE_TYPE } from "@/lib/feedback/kinds";
import { resolveQueue, type QueueAccess } from "./queue-access";
import { itemAnnotations } from "./item-annotations";
import { itemCallRef } from "./item-feedback";
import type { ListedItemDto, ListItemsQuery } from "./item-schemas";
import { itemSelect, toItemDto, type ItemRow } from "./item-rows";

// GET /annotation_queues/{queue_id}/items: a cursor page of the queue's live items in the order
// asked for (order of addition, or the calls' start), each with `position_in_queue`: its 1-based
// rank in that order over the whole queue, computed before the filters, as W&B Weave does, so a
// filtered page still says where each item stands. `after` resolves to the item's rank in the
// same statement (the rank is computed there, so the cursor stays an id). Each item carries its
// call's prompt and answer and who finished it with what: everyone's work for members and admins
// (reviewers), an annotator's own for annotators; the annotator, value and search filters read the
// same rows, so an annotator cannot find items by another person's values.

const ORDER_KEYS = { position: (dir: string) => `i.seq ${dir}`, call_started_at: (dir: string) => `c."startedAt" ${dir}, i.seq ${dir}` };

const LISTED_COLUMNS = `, ${cut(INPUT_TEXT)} AS "promptPreview", ${cut(OUTPUT_TEXT)} AS "answerPreview", ${OUTPUT_TEXT} AS answer, ${INPUT_TEXT} AS "promptText"`;

interface ListedRow extends ItemRow {
  promptPreview: string | null;
  answerPreview: string | null;
  answer: string | null;
}

/** A `value` filter as JSON when it parses, else as the string it is. */
function jsonValue(text: string): string {
  try {
    JSON.parse(text);
    return text;
  } catch {
    return JSON.stringify(text);
  }
}

/** The conditions on the annotation rows (feedback `f` in this queue on item `x`'s call) that the caller may see. */
function feedbackOf(access: QueueAccess, params: SqlParams, visibleTo: string | null): string {
  return `f."projectId" = ${params.add(access.queue.projectId)}::uuid AND f."queueId" = ${params.add(access.queue.id)}::uuid
          AND f."svcRef" = ${params.add(itemCallRef(access, ""))} || x."callId"::text
          ${visibleTo ? `AND f."wbUserId" = ${params.add(visibleTo)}::uuid` : ""}`;
}

/** The filters on the items `x` beyond status and the caller's own state. */
async function reviewFilters(access: QueueAccess, query: ListItemsQuery, params: SqlParams, visibleTo: string | null): Promise<string[]> {
  const conditions: string[] = [];
  if (query.review_state) conditions.push(`x."reviewState" = ANY(${params.add(query.review_state)}::text[])`);
  let annotatorId: string | null = null;
  if (query.annotator) {
    const user = await getDb().user.findUnique({ where: { username: query.annotator }, select: { id: true } });
    annotatorId = user?.id ?? "00000000-0000-0000-0000-000000000000"; // nobody: no item matches
    if (visibleTo && annotatorId !== visibleTo) annotatorId = "00000000-0000-0000-0000-000000000000";
    conditions.push(`EXISTS (SELECT 1 FROM "AnnotationProgress" p WHERE p."itemId" = x.id AND p."annotatorId" = ${params.add(annotatorId)}::uuid AND p.state = 'completed')`);
  }
  if (query.spec) {
    const by = annotatorId ? `AND f."wbUserId" = ${params.add(annotatorId)}::uuid` : "";
    const value = query.value === undefined ? "" : `AND f.payload->'value' = ${params.add(jsonValue(query.value))}::jsonb`;
    conditions.push(`EXISTS (SELECT 1 FROM "Feedback" f WHERE ${feedbackOf(access, params, visibleTo)} AND f."feedbackType" = ${params.add(ANNOTATION_PREFIX + query.spec)} ${by} ${value})`);
  }
  if (query.search) {
    const text = params.add(query.search.toLowerCase());
    const types = params.add([NOTE_TYPE]);
    conditions.push(`(strpos(lower(coalesce(x."promptText", '') || ' ' || coalesce(x.answer, '')), ${text}) > 0
      OR EXISTS (SELECT 1 FROM "Feedback" f WHERE ${feedbackOf(access, params, visibleTo)}
                  AND (starts_with(f."feedbackType", ${params.add(ANNOTATION_PREFIX)}) OR f."feedbackType" = ANY(${types}::text[]))
                  AND strpos(lower(f.payload::text), ${text}) > 0))`);
  }
  return conditions;
}

export async function listItems(principal: Principal, queueId: string, query: ListItemsQuery): Promise<Page<ListedItemDto>> {
  const access = await resolveQueue(principal, queueId, "annotate");
  const visibleTo = roleAllows(access.role, "use") ? null : principal.user.id;
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
  conditions.push(...(await reviewFilters(access, query, params, visibleTo)));
  const page = await pageAfter({
    query,
    findCursor: async (id) => ((await getDb().annotationQueueItem.count({ where: { id, queueId, deletedAt: null } })) ? id : null),
    findRows: ({ cursor, take }) => {
      if (cursor) conditions.push(`x.position > (SELECT position FROM ranked WHERE id = ${params.add(cursor)}::uuid)`);
      return getDatabase().sql.query<ListedRow>(
        `WITH ranked AS (${ranked})
         SELECT * FROM (${itemSelect(access, principal.user.id, params, "r.position", LISTED_COLUMNS)} JOIN ranked r ON r.id = i.id) x
          WHERE ${conditions.join(" AND ")}
          ORDER BY x.position
          LIMIT ${params.add(take)}`,
        params.values,
      );
    },
    toDto: (row) => row,
  });
  const annotations = await itemAnnotations(access, page.data.map((row) => row.id), visibleTo);
  return {
    ...page,
    data: page.data.map((row) => ({
      ...toItemDto(access, row),
      prompt_preview: row.promptPreview,
      answer_preview: row.answerPreview,
      answer: row.answer,
      annotations: annotations.get(row.id)!,
    })),
  };
}
