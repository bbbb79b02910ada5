import { badRequest } from "@/lib/contract/errors";
import { Prisma } from "@/lib/db/generated/client";

// The fields a feedback query names ($getField, `fields`, `sort_by`): the row's columns under
// their wire names, and `payload.<path>` (dots separate keys, `\.` is a dot inside a key, a number
// indexes an array), as W&B Weave's feedback table exposes them.

export type ValueType = "text" | "number" | "boolean" | "timestamp";

export interface FieldSql {
  /** The value as compared and sorted. Payload paths are their JSON value as text, untyped. */
  value: Prisma.Sql;
  type: ValueType;
  /** What the result row holds for the field (JSON values stay JSON). */
  select: Prisma.Sql;
  /** A ref column: literals compared with it are taken in canonical form (weave:/// → svc:///). */
  ref?: boolean;
  /** A payload path: its JSON value, for `exists` and for typing it by what it is compared with. */
  json?: Prisma.Sql;
}

const column = (name: string, type: ValueType = "text", ref = false): FieldSql => {
  const sql = Prisma.raw(`"${name}"`);
  const value = type === "text" && (name === "id" || name === "wbUserId" || name === "queueId") ? Prisma.sql`${sql}::text` : sql;
  return { value, type, select: sql, ref };
};

const COLUMNS: Record<string, FieldSql> = {
  id: column("id"),
  weave_ref: column("svcRef", "text", true),
  svc_ref: column("svcRef", "text", true),
  wb_user_id: column("wbUserId"),
  creator: column("creator"),
  created_at: column("createdAt", "timestamp"),
  feedback_type: column("feedbackType"),
  payload: { value: Prisma.sql`"payload"::text`, type: "text", select: Prisma.sql`"payload"` },
  annotation_ref: column("annotationRef", "text", true),
  runnable_ref: column("runnableRef", "text", true),
  call_ref: column("callRef", "text", true),
  trigger_ref: column("triggerRef", "text", true),
  queue_id: column("queueId"),
};

export const FIELD_NAMES = ["id", "project_id", ...Object.keys(COLUMNS).filter((n) => n !== "id")];

/** `a.b\.c.0` → ["a", "b.c", "0"] */
function splitPath(path: string): string[] {
  return path.split(/(?<!\\)\./).map((part) => part.replaceAll("\\.", "."));
}

/** The SQL of a field of the project's feedback; an unknown field is a 400 that names it. */
export function fieldSql(name: string, projectRef: string): FieldSql {
  if (name === "project_id") {
    const value = Prisma.sql`${projectRef}::text`;
    return { value, type: "text", select: value };
  }
  const known = COLUMNS[name];
  if (known) return known;
  if (name.startsWith("payload.")) {
    const parts = splitPath(name.slice("payload.".length));
    if (parts.some((p) => p === "")) throw badRequest(`Field '${name}' has an empty path segment.`);
    const path = Prisma.sql`ARRAY[${Prisma.join(parts.map((p) => Prisma.sql`${p}::text`))}]`;
    const json = Prisma.sql`("payload" #> ${path})`;
    return { value: Prisma.sql`("payload" #>> ${path})`, type: "text", select: json, json };
  }
  throw badRequest(`Unknown field '${name}': a feedback query names ${FIELD_NAMES.join(", ")} or payload.<path>.`);
}
