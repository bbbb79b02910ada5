import type { Principal } from "@/lib/auth/principal";
import { badRequest } from "@/lib/contract/errors";
import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { FIELD_NAMES, fieldSql } from "./feedback-fields";
import { resolveFeedbackProject } from "./project-access";
import { compileQuery, numberFromText } from "./query-language";
import { MAX_QUERY_ROWS, type QueryFeedbackBody } from "./schemas";

// POST /feedback/query: a project's feedback rows matching a query, in SQL: the filter, the order,
// the page and the projection to `fields` all run in the database.

function orderBy(sortBy: QueryFeedbackBody["sort_by"], projectRef: string): Prisma.Sql {
  const terms: Prisma.Sql[] = [];
  for (const { field, direction } of sortBy ?? [{ field: "created_at", direction: "asc" as const }]) {
    const sql = fieldSql(field, projectRef);
    const dir = Prisma.raw(direction === "asc" ? "ASC" : "DESC");
    if (sql.json) {
      // A payload path may hold anything: rows that have it first, then by number (as a query
      // compares it), then by text.
      terms.push(
        Prisma.sql`(${sql.json} IS NOT NULL) DESC`,
        Prisma.sql`${numberFromText(sql.value)} ${dir} NULLS LAST`,
        Prisma.sql`${sql.value} COLLATE "C" ${dir} NULLS LAST`,
      );
    } else {
      terms.push(sql.type === "text" ? Prisma.sql`${sql.value} COLLATE "C" ${dir}` : Prisma.sql`${sql.value} ${dir}`);
    }
  }
  terms.push(Prisma.sql`"id" ASC`); // a stable order for offset pages
  return Prisma.join(terms);
}

export async function queryFeedback(principal: Principal, body: QueryFeedbackBody): Promise<{ result: Record<string, unknown>[] }> {
  const access = await resolveFeedbackProject(principal, body.project_id, { write: false });
  const projectRef = `${access.team.name}/${access.project.name}`;
  // By default every field, the subject under both its names (svc_ref and Weave's weave_ref).
  const fields = body.fields?.length ? body.fields : FIELD_NAMES;
  const selected = fields.map((name, i) => Prisma.sql`${fieldSql(name, projectRef).select} AS ${Prisma.raw(`"f${i}"`)}`);
  const where = body.query ? compileQuery(body.query.$expr, projectRef, ["body", "query", "$expr"]) : Prisma.sql`TRUE`;
  // Without a limit, one row more than the most a query returns tells that it matched too many.
  const limit = body.limit ?? MAX_QUERY_ROWS + 1;
  const rows = await getDb().$queryRaw<Record<string, unknown>[]>`
    SELECT ${Prisma.join(selected)} FROM "Feedback"
    WHERE "projectId" = ${access.project.id}::uuid AND (${where})
    ORDER BY ${orderBy(body.sort_by, projectRef)}
    LIMIT ${limit}::bigint OFFSET ${body.offset ?? 0}::bigint`;
  if (body.limit === undefined && rows.length > MAX_QUERY_ROWS) {
    throw badRequest(`More than ${MAX_QUERY_ROWS} feedback rows match: page through them with limit and offset.`);
  }
  return { result: rows.map((row) => Object.fromEntries(fields.map((name, i) => [name, wireValue(row[`f${i}`])]))) };
}

function wireValue(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : (value ?? null);
}
