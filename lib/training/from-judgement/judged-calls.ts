// The calls a build reads and the annotations on them. A queue gives its live items' calls (in
// queue order; with accepted_only, those a reviewer accepted) and only the annotations given in that queue; a project gives its calls matching
// the call log's filter (oldest first) and any annotation on them. Either is the caller's: another
// team's queue or project is a 404, an annotator's a 403 (annotators do not train models).
import type { Principal } from "@/lib/auth/principal";
import { resolveProject } from "@/lib/auth/projects";
import { flushCalls } from "@/lib/call-log/call-recorder";
import { CALLS_FROM, callFilterConditions, type CallFilters } from "@/lib/calls/list-calls";
import { SqlParams } from "@/lib/calls/sql-params";
import { getDatabase } from "@/lib/db/client";
import { ANNOTATION_PREFIX } from "@/lib/feedback/kinds";
import { resolveQueue } from "@/lib/queues/queue-access";
import { latestPerAnnotator, type AnnotationRow } from "./combine-annotations";

export interface JudgedCalls {
  projectId: string;
  /** `team/project` */
  project: string;
  teamName: string;
  queue: { id: string; name: string } | null;
  /** The queue's accepted items only (always false for a project's calls). */
  acceptedOnly: boolean;
  /** The call-log filter as sent (its set keys only), for the lineage. */
  filter: Record<string, unknown> | null;
  /** Matched calls, in queue order or oldest first. */
  callIds: string[];
}

interface SourceBody {
  queue_id?: string;
  project?: string;
  filter?: CallFilters;
  /** A queue's accepted items only. */
  accepted_only?: boolean;
  limit: number;
}

const FILTER_KEYS = ["model", "status", "start", "end", "has_feedback", "feedback_type", "feedback_value", "feedback_min", "feedback_max"] as const;

export async function resolveJudgedCalls(principal: Principal, body: SourceBody): Promise<JudgedCalls> {
  await flushCalls(); // a call just made may still be in this process's write-behind buffer
  const db = getDatabase().sql;
  if (body.queue_id) {
    const access = await resolveQueue(principal, body.queue_id, "use");
    const rows = await db.query<{ callId: string }>(
      `SELECT "callId" FROM "AnnotationQueueItem" WHERE "queueId" = $1::uuid AND "deletedAt" IS NULL AND (NOT $3 OR "reviewState" = 'accepted') ORDER BY seq LIMIT $2`,
      [access.queue.id, body.limit, body.accepted_only ?? false],
    );
    return {
      projectId: access.queue.projectId, project: access.project, teamName: access.team.name,
      queue: { id: access.queue.id, name: access.queue.name }, acceptedOnly: body.accepted_only ?? false, filter: null, callIds: rows.map((r) => r.callId),
    };
  }
  const access = await resolveProject(principal, body.project!, "use", { createIfMissing: false });
  const filter = body.filter ?? {};
  const params = new SqlParams();
  const conditions = [`c."projectId" = ${params.add(access.project.id)}::uuid`, ...callFilterConditions(filter, params)];
  const rows = await db.query<{ id: string }>(
    `SELECT c.id FROM ${CALLS_FROM} WHERE ${conditions.join(" AND ")} ORDER BY c."startedAt", c.id LIMIT ${params.add(body.limit)}`,
    params.values,
  );
  const sent = Object.fromEntries(FILTER_KEYS.flatMap((key) => (filter[key] === undefined ? [] : [[key, filter[key]]])));
  return {
    projectId: access.project.id, project: `${access.team.name}/${access.project.name}`, teamName: access.team.name,
    queue: null, acceptedOnly: false, filter: sent, callIds: rows.map((r) => r.id),
  };
}

/** A choice's annotations name it by the call's ref followed by `/choice/<index>`. */
const TARGET = /^([0-9a-f-]{36})(?:\/choice\/(\d+))?$/i;

/**
 * Each annotator's newest annotation with one of `specs` on the matched calls (or their choices):
 * in the queue when the calls came from one, else any.
 */
export async function loadAnnotations(calls: JudgedCalls, specs: string[]): Promise<AnnotationRow[]> {
  const params = new SqlParams();
  const conditions = [
    `f."projectId" = ${params.add(calls.projectId)}::uuid`,
    `f."feedbackType" = ANY(${params.add(specs.map((s) => ANNOTATION_PREFIX + s))}::text[])`,
    `starts_with(f."svcRef", ${params.add(`svc:///${calls.project}/call/`)})`,
  ];
  if (calls.queue) conditions.push(`f."queueId" = ${params.add(calls.queue.id)}::uuid`);
  const rows = await getDatabase().sql.query<{ id: string; svcRef: string; feedbackType: string; value: unknown; userId: string; createdAt: Date }>(
    `SELECT f.id, f."svcRef", f."feedbackType", f.payload->'value' AS value, f."wbUserId" AS "userId", f."createdAt"
       FROM "Feedback" f WHERE ${conditions.join(" AND ")}`,
    params.values,
  );
  const matched = new Set(calls.callIds);
  const prefix = `svc:///${calls.project}/call/`.length;
  const annotations: AnnotationRow[] = [];
  for (const row of rows) {
    const target = TARGET.exec(row.svcRef.slice(prefix));
    if (!target || !matched.has(target[1].toLowerCase())) continue;
    annotations.push({
      id: row.id, callId: target[1].toLowerCase(), choice: target[2] === undefined ? null : Number(target[2]),
      spec: row.feedbackType.slice(ANNOTATION_PREFIX.length), value: row.value, userId: row.userId, createdAt: new Date(row.createdAt),
    });
  }
  return latestPerAnnotator(annotations);
}

/** Rows grouped by call id. */
export function byCall(rows: AnnotationRow[]): Map<string, AnnotationRow[]> {
  const map = new Map<string, AnnotationRow[]>();
  for (const row of rows) map.set(row.callId, [...(map.get(row.callId) ?? []), row]);
  return map;
}
