import type { Principal } from "@/lib/auth/principal";
import { badRequest } from "@/lib/contract/errors";
import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { resolveFeedbackProject } from "./project-access";
import { canonicalizeRefText } from "./refs";
import { KEY_SAMPLE, type PayloadKeysBody, type PayloadKeysResult } from "./stats-schema";

// POST /feedback/stats/keys: the payload paths a metric can be built on, found in SQL by walking a
// sample of the project's payloads. The sample is per feedback type — the newest rows of each — so a
// frequent type (reactions) does not hide the keys of a rarer one (an annotation's `value`). The
// types are found by skipping through the (projectId, feedbackType, createdAt) index, one probe each.

/** A key a json_path can name (stats-metrics.ts): no dots, only A-Za-z0-9, `_` and spaces. */
const NAMEABLE_KEY = "^[A-Za-z0-9_ ]+$";
const MAX_DEPTH = 16;
const MAX_PATH_LENGTH = 512;

export async function payloadKeys(principal: Principal, body: PayloadKeysBody, now = new Date()): Promise<PayloadKeysResult> {
  const end = body.end ?? now;
  if (body.start && end <= body.start) throw badRequest(`end (${end.toISOString()}) must be after start (${body.start.toISOString()}).`);
  const { project } = await resolveFeedbackProject(principal, body.project_id, { write: false });

  const projectId = Prisma.sql`${project.id}::uuid`;
  const filters = [Prisma.sql`f."createdAt" < ${end}`, Prisma.sql`pg_column_size(f."payload") <= ${KEY_SAMPLE.maxPayloadBytes}`];
  if (body.start) filters.push(Prisma.sql`f."createdAt" >= ${body.start}`);
  const trigger = body.trigger_ref === undefined ? undefined : canonicalizeRefText(body.trigger_ref);
  if (trigger?.endsWith(":*")) filters.push(Prisma.sql`starts_with(f."triggerRef", ${trigger.slice(0, -1)})`);
  else if (trigger !== undefined) filters.push(Prisma.sql`f."triggerRef" = ${trigger}`);

  const types =
    body.feedback_type === undefined
      ? Prisma.sql`
        types(t, n) AS (
          (SELECT "feedbackType", 1 FROM "Feedback" WHERE "projectId" = ${projectId} ORDER BY "feedbackType" LIMIT 1)
          UNION ALL
          SELECT (SELECT f."feedbackType" FROM "Feedback" f WHERE f."projectId" = ${projectId} AND f."feedbackType" > types.t ORDER BY f."feedbackType" LIMIT 1), n + 1
          FROM types WHERE types.t IS NOT NULL AND n < ${KEY_SAMPLE.types}
        )`
      : Prisma.sql`types(t) AS (SELECT ${body.feedback_type}::text)`;

  const rows = await getDb().$queryRaw<{ json_path: string; value_kind: "number" | "boolean" | "string" }[]>`
    WITH RECURSIVE ${types},
    sample AS (
      SELECT s."payload" FROM types CROSS JOIN LATERAL (
        SELECT f."payload" FROM "Feedback" f
        WHERE f."projectId" = ${projectId} AND f."feedbackType" = types.t AND ${Prisma.join(filters, " AND ")}
        ORDER BY f."createdAt" DESC LIMIT ${KEY_SAMPLE.rowsPerType}
      ) s
    ),
    walk(path, value, depth) AS (
      SELECT e.key, e.value, 1 FROM sample CROSS JOIN LATERAL jsonb_each(sample."payload") e WHERE e.key ~ ${NAMEABLE_KEY}
      UNION ALL
      SELECT w.path || '.' || e.key, e.value, w.depth + 1
      FROM walk w CROSS JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(w.value) = 'object' THEN w.value ELSE '{}'::jsonb END) e
      WHERE w.depth < ${MAX_DEPTH} AND e.key ~ ${NAMEABLE_KEY}
    ),
    kinds AS (
      SELECT path, jsonb_typeof(value) AS kind, count(*) AS n FROM walk
      WHERE jsonb_typeof(value) IN ('number', 'boolean', 'string') AND length(path) <= ${MAX_PATH_LENGTH}
      GROUP BY path, kind
    )
    SELECT path AS json_path, kind AS value_kind FROM (
      SELECT path, kind, row_number() OVER (PARTITION BY path ORDER BY n DESC, kind) AS rank FROM kinds
    ) ranked
    WHERE rank = 1
    ORDER BY path COLLATE "C"`;
  return { keys: rows };
}
