import type { Principal } from "@/lib/auth/principal";
import { conflict, forbidden } from "@/lib/contract/errors";
import { getDb } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import type { SqlSession } from "@/lib/db/sql";
import { uuid7 } from "@/lib/db/uuid7";
import { mayActOnOthersFeedback, resolveFeedbackProject } from "./project-access";
import type { CreateFeedbackBody, ReplaceFeedbackBody, WrittenFeedback } from "./schemas";
import { validateFeedback, type FeedbackRow } from "./validate-feedback";

// POST /feedback/create and /feedback/replace. Both validate everything first; replace then deletes
// (project_id, feedback_id) and inserts the new row in one transaction, so a rejected replace — by
// validation, by the role rule, or by a failing insert — leaves the old row as it was. The author
// (wb_user_id) is always the authenticated user, whatever the body says.

type Tx = Pick<Prisma.TransactionClient, "feedback">;

async function insert(db: Tx, row: FeedbackRow, userId: string): Promise<WrittenFeedback> {
  try {
    const created = await db.feedback.create({
      data: { ...row, payload: row.payload as Prisma.InputJsonObject, wbUserId: userId },
      select: { id: true, createdAt: true, wbUserId: true, payload: true },
    });
    return { id: created.id, created_at: created.createdAt.toISOString(), wb_user_id: created.wbUserId, payload: created.payload as Record<string, unknown> };
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") throw conflict(`Feedback '${row.id}' already exists: choose another id, or leave it out for a new one.`);
    throw error;
  }
}

export async function createFeedback(principal: Principal, body: CreateFeedbackBody): Promise<WrittenFeedback> {
  const access = await resolveFeedbackProject(principal, body.project_id, { write: true });
  const row = await validateFeedback(access, body);
  return insert(getDb(), row, principal.user.id);
}

export async function replaceFeedback(principal: Principal, body: ReplaceFeedbackBody): Promise<WrittenFeedback> {
  const access = await resolveFeedbackProject(principal, body.project_id, { write: true });
  const row = await validateFeedback(access, body);
  const old = { id: body.feedback_id, projectId: access.project.id };
  return getDb().$transaction(async (tx) => {
    const existing = await tx.feedback.findFirst({ where: old, select: { wbUserId: true } });
    if (existing && existing.wbUserId !== principal.user.id && !mayActOnOthersFeedback(access)) {
      throw forbidden("Annotators may replace only feedback they wrote.");
    }
    await tx.feedback.deleteMany({ where: old });
    return insert(tx, row, principal.user.id);
  });
}

/**
 * Inserts validated rows as the user's in one statement, on a SQL session inside the caller's own
 * transaction (an annotation queue's submission writes its rows with its progress). Their ids are
 * new; the rows come back in the order given.
 */
export async function insertFeedbackRows(session: SqlSession, rows: FeedbackRow[], userId: string): Promise<WrittenFeedback[]> {
  if (rows.length === 0) return [];
  const withIds = rows.map((row) => ({ ...row, id: uuid7() }));
  const written = await session.query<{ id: string; createdAt: Date; payload: Record<string, unknown> }>(
    `INSERT INTO "Feedback" (id, "projectId", "feedbackType", payload, "svcRef", "annotationRef", "runnableRef", "callRef", "triggerRef", "queueId", "wbUserId", creator)
     SELECT r.id, r."projectId", r."feedbackType", r.payload, r."svcRef", r."annotationRef", r."runnableRef", r."callRef", r."triggerRef", r."queueId", $2::uuid, r.creator
       FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, "projectId" uuid, "feedbackType" text, payload jsonb, "svcRef" text, "annotationRef" text,
                                               "runnableRef" text, "callRef" text, "triggerRef" text, "queueId" uuid, creator text)
     RETURNING id, "createdAt", payload`,
    [JSON.stringify(withIds), userId],
  );
  const byId = new Map(written.map((row) => [row.id, row]));
  return withIds.map(({ id }) => {
    const row = byId.get(id)!;
    return { id, created_at: row.createdAt.toISOString(), wb_user_id: userId, payload: row.payload };
  });
}
