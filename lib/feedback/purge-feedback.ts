import type { Principal } from "@/lib/auth/principal";
import { badRequest, forbidden } from "@/lib/contract/errors";
import { getDb } from "@/lib/db/client";
import { mayActOnOthersFeedback, resolveFeedbackProject } from "./project-access";
import type { PurgeFeedbackBody } from "./schemas";

// POST /feedback/purge: deletes feedback rows named by id, as W&B Weave's purge (which refuses any
// other query, so no query can delete a project's feedback wholesale). An annotator's purge that
// names a row someone else wrote deletes nothing (403). Ids that name no row are ignored.

const ONLY_BY_ID = "Feedback is purged by id only: {$eq: [{$getField: \"id\"}, {$literal: \"<id>\"}]}, an $or of those, or {$in: [{$getField: \"id\"}, [{$literal: \"<id>\"}, ...]]}.";
const MAX_IDS = 10_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isIdField = (v: unknown) => isObject(v) && Object.keys(v).length === 1 && v.$getField === "id";
const literalId = (v: unknown): string | undefined => (isObject(v) && Object.keys(v).length === 1 && typeof v.$literal === "string" ? v.$literal : undefined);

/** The ids an id-selecting query names; any other query is a 400. */
export function idsOf(expr: unknown): string[] {
  if (!isObject(expr) || Object.keys(expr).length !== 1) throw badRequest(ONLY_BY_ID);
  const [operator, arg] = Object.entries(expr)[0];
  if (operator === "$eq" && Array.isArray(arg) && arg.length === 2) {
    const id = isIdField(arg[0]) ? literalId(arg[1]) : isIdField(arg[1]) ? literalId(arg[0]) : undefined;
    if (id !== undefined) return [id];
  }
  if (operator === "$or" && Array.isArray(arg) && arg.length > 0) return arg.flatMap(idsOf);
  if (operator === "$in" && Array.isArray(arg) && arg.length === 2 && isIdField(arg[0]) && Array.isArray(arg[1])) {
    const ids = arg[1].map(literalId);
    if (ids.every((id) => id !== undefined)) return ids as string[];
  }
  throw badRequest(ONLY_BY_ID);
}

export async function purgeFeedback(principal: Principal, body: PurgeFeedbackBody): Promise<Record<string, never>> {
  const access = await resolveFeedbackProject(principal, body.project_id, { write: false });
  const named = new Set(idsOf(body.query.$expr));
  if (named.size > MAX_IDS) throw badRequest(`A purge names at most ${MAX_IDS} ids; this one names ${named.size}.`);
  // Ids are UUIDs: another string names no row.
  const ids = [...named].filter((id) => UUID.test(id));
  if (ids.length === 0) return {};
  const where = { projectId: access.project.id, id: { in: ids } };
  await getDb().$transaction(async (tx) => {
    if (!mayActOnOthersFeedback(access)) {
      const others = await tx.feedback.count({ where: { ...where, wbUserId: { not: principal.user.id } } });
      if (others > 0) throw forbidden("Annotators may purge only feedback they wrote.");
    }
    await tx.feedback.deleteMany({ where });
  });
  return {};
}
