import type { Principal } from "@/lib/auth/principal";
import { badRequest, invalid, ValidationError, type ValidationIssue } from "@/lib/contract/errors";
import { getDatabase } from "@/lib/db/client";
import type { AnnotationSpec } from "@/lib/db/generated/client";
import { specValueProblem, type Preference } from "@/lib/feedback/annotation-spec-values";
import { storedDefinition } from "@/lib/feedback/annotation-specs";
import { ANNOTATION_PREFIX } from "@/lib/feedback/kinds";
import { isCorrection } from "@/lib/feedback/corrections";
import { preferenceIssues } from "@/lib/feedback/preferred-choice";
import { recordedCall, type RecordedCall } from "@/lib/feedback/recorded-call";
import { objectRef } from "@/lib/feedback/refs";
import { resolveQueue } from "./queue-access";
import { itemCallRef, noteBody, validateItemFeedback, writeItemFeedback, type ItemFeedbackBody, type WrittenItemFeedback } from "./item-feedback";
import type { ItemDto, SubmitBody } from "./item-schemas";
import { liveItemCallId, readItem } from "./item-rows";
import { dropClaim, lockItem, reopenReview, writeProgress } from "./progress-write";

// POST /annotation_queues/{queue_id}/items/{item_id}/submit: the caller's annotation of an item —
// one `wandb.annotation.<spec>` feedback row per value (against the spec version the queue pins,
// with the queue's id and the call's ref), an optional note, and their progress `completed`, in one
// transaction. Submitting an item one has completed (Back, then submit) replaces one's rows and
// leaves the state as it is; a skipped item takes no annotation (400). Any submission makes the
// item's review pending again (a rejected item comes back to the reviewer this way). A late submission — after
// one's claim expired, even after others completed the item — is stored like any other. A corrected
// reply left as the model's reply (lib/feedback/corrections.ts) is no correction: it answers its
// field (a required one too) and is not stored.

interface QueueSpec {
  spec: AnnotationSpec;
  required: boolean;
}

/** Every value names a spec of the queue and satisfies its pinned version (a preferred choice: the
 *  call's choices too, `call`); every required spec has one. The rows to write: one per value, but
 *  for an unchanged corrected reply. */
function checkValues(project: string, specs: QueueSpec[], body: SubmitBody, callId: string, call: RecordedCall | null | undefined): ItemFeedbackBody[] {
  const issues: ValidationIssue[] = [];
  for (const name of Object.keys(body.values)) {
    if (!specs.some(({ spec }) => spec.name === name)) issues.push({ loc: ["body", "values", name], msg: "not a spec of this queue", type: "value_error" });
  }
  const given: ItemFeedbackBody[] = [];
  let unchanged = false;
  for (const { spec, required } of specs) {
    const value = body.values[spec.name];
    if (value === undefined) {
      if (required) issues.push({ loc: ["body", "values", spec.name], msg: "Field required (a required spec of this queue)", type: "missing" });
      continue;
    }
    const problem = specValueProblem(storedDefinition(spec), value);
    if (problem) issues.push({ loc: ["body", "values", spec.name], msg: `${problem} (annotation spec '${spec.name}', ${spec.type})`, type: "value_error" });
    else if (spec.type === "preferred_choice") issues.push(...preferenceIssues(value as Preference, call?.choices ?? null, callId, ["body", "values", spec.name]));
    else if (spec.type === "corrected_reply" && !isCorrection(value, call?.reply)) {
      unchanged = true;
      continue;
    }
    given.push({ feedback_type: `${ANNOTATION_PREFIX}${spec.name}`, annotation_ref: objectRef(project, spec.name, spec.digest), payload: { value } });
  }
  if (issues.length > 0) throw new ValidationError(issues);
  if (given.length === 0 && !body.note && !unchanged) throw invalid(["body", "values"], "give a value for at least one spec (or skip the item)");
  return given;
}

async function queueSpecs(queueId: string): Promise<QueueSpec[]> {
  const rows = await getDatabase().sql.query<AnnotationSpec & { required: boolean }>(
    `SELECT s.*, qs.required FROM "AnnotationQueueSpec" qs JOIN "AnnotationSpec" s ON s.id = qs."specId" WHERE qs."queueId" = $1::uuid ORDER BY qs.position`,
    [queueId],
  );
  return rows.map(({ required, ...spec }) => ({ spec, required }));
}

export async function submitItem(
  principal: Principal,
  queueId: string,
  itemId: string,
  body: SubmitBody,
): Promise<{ item: ItemDto; feedback: WrittenItemFeedback[] }> {
  const access = await resolveQueue(principal, queueId, "annotate");
  const annotator = principal.user.id;
  const [specs, callId] = await Promise.all([queueSpecs(queueId), liveItemCallId(access, itemId)]);
  const ref = itemCallRef(access, callId);
  // The call is read only for a preferred choice or a corrected reply: the hot path stays as it is.
  const readsCall = specs.some(({ spec }) => (spec.type === "preferred_choice" || spec.type === "corrected_reply") && body.values[spec.name] !== undefined);
  const call = readsCall ? await recordedCall(access.queue.projectId, callId) : undefined;
  const bodies = [...checkValues(access.project, specs, body, callId, call), ...(body.note ? [noteBody(body.note)] : [])];
  const live = specs.filter(({ spec }) => !spec.deletedAt).map(({ spec }) => spec);
  const rows = await validateItemFeedback(principal, access, ref, bodies, live, call);
  const feedback = await getDatabase().sql.transaction(async (tx) => {
    const item = await lockItem(tx, access, itemId, annotator);
    if (item.state === "skipped") throw badRequest("You skipped this item, which is final for an annotator: it takes no annotation from you.");
    const written = await writeItemFeedback(tx, access, ref, annotator, rows, { replace: true });
    if (item.state !== "completed") await writeProgress(tx, item, annotator, "completed");
    else await dropClaim(tx, item, annotator); // a rejected item taken back
    await reopenReview(tx, item);
    return written;
  });
  return { item: await readItem(access, annotator, itemId), feedback };
}
