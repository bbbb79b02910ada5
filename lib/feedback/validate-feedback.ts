import type { ProjectAccess } from "@/lib/auth/projects";
import { AppError, invalid, notFound } from "@/lib/contract/errors";
import { DEFAULT_BODY_LIMIT } from "@/lib/contract/body-limits";
import type { AnnotationSpec } from "@/lib/db/generated/client";
import { findLiveSpecVersion, storedDefinition } from "./annotation-specs";
import { specValueProblem, type Preference } from "./annotation-spec-values";
import { checkedPayload, feedbackKind } from "./kinds";
import { isCorrection, UNCHANGED } from "./corrections";
import { assertPreferenceFits } from "./preferred-choice";
import { assertLiveQueue } from "./queue-ref";
import { recordedCall, type RecordedCall } from "./recorded-call";
import { parseRef, RefError, type ParsedRef, type RefKind } from "./refs";
import type { CreateFeedbackBody } from "./schemas";

// Everything a feedback write is checked for before anything is written (docs/feedback.md): each
// ref parses and points into project_id, the kind's refs and payload rules, the annotation spec and
// the queue it names, and the payload's size. What comes out is the row to insert.

/** A payload's JSON is at most this many bytes (contract: 1 MiB, 413 beyond). */
export const MAX_PAYLOAD_BYTES = DEFAULT_BODY_LIMIT;

export interface FeedbackRow {
  id?: string;
  projectId: string;
  feedbackType: string;
  payload: Record<string, unknown>;
  svcRef: string;
  annotationRef: string | null;
  runnableRef: string | null;
  callRef: string | null;
  triggerRef: string | null;
  queueId: string | null;
  creator: string | null;
}

const withArticle = (kind: RefKind) => (kind === "call" ? `a ${kind}` : `an ${kind}`);

type RefField = "svc_ref" | "weave_ref" | "annotation_ref" | "runnable_ref" | "call_ref" | "trigger_ref";

function refIn(body: CreateFeedbackBody, field: RefField, project: string, kinds: readonly RefKind[]): ParsedRef | null {
  const value = body[field];
  if (value === undefined) return null;
  let parsed: ParsedRef;
  try {
    parsed = parseRef(value);
  } catch (error) {
    if (error instanceof RefError) throw invalid(["body", field], `${error.message}; got '${value.slice(0, 200)}'`);
    throw error;
  }
  if (parsed.project !== project) throw invalid(["body", field], `points into project '${parsed.project}', not '${project}' (project_id)`);
  if (!kinds.includes(parsed.kind)) throw invalid(["body", field], `must be ${kinds.map(withArticle).join(" or ")} ref, not ${withArticle(parsed.kind)} ref`);
  return parsed;
}

function subjectRef(body: CreateFeedbackBody, project: string, kinds: readonly RefKind[]): ParsedRef {
  const svc = refIn(body, "svc_ref", project, kinds);
  const weave = refIn(body, "weave_ref", project, kinds);
  if (!svc && !weave) throw invalid(["body", "svc_ref"], "Field required (or weave_ref)", "missing");
  if (svc && weave && svc.canonical !== weave.canonical) throw invalid(["body", "weave_ref"], "names another ref than svc_ref; send one of them");
  return (svc ?? weave)!;
}

/** What a caller has already looked up in the same request (an annotation queue's submission has its
 *  queue and the spec versions it pins): those lookups are not made again. */
export interface KnownToBeLive {
  queueId?: string;
  /** Live spec versions by their canonical ref. */
  specs?: ReadonlyMap<string, AnnotationSpec>;
  /** The call the feedback is about, as read (null: no such call), for a preferred choice or a corrected reply. */
  call?: RecordedCall | null;
}

export async function validateFeedback(access: ProjectAccess, body: CreateFeedbackBody, known: KnownToBeLive = {}): Promise<FeedbackRow> {
  const project = `${access.team.name}/${access.project.name}`;
  const kind = feedbackKind(body.feedback_type);
  const builtIn = kind.kind === "reaction" || kind.kind === "note" || kind.kind === "annotation";
  const subject = subjectRef(body, project, builtIn ? ["call"] : ["object", "op", "call"]);
  const annotationRef = refIn(body, "annotation_ref", project, ["object"]);
  const runnableRef = refIn(body, "runnable_ref", project, ["op", "object"]);
  const callRef = refIn(body, "call_ref", project, ["call"]);
  const triggerRef = refIn(body, "trigger_ref", project, ["object"]);

  if (kind.kind === "annotation") {
    if (!annotationRef) throw invalid(["body", "annotation_ref"], "Field required for annotation feedback: the spec's svc:/// object ref", "missing");
    if (annotationRef.name !== kind.specName) throw invalid(["body", "annotation_ref"], `must name the spec '${kind.specName}' of feedback_type`);
  } else if (annotationRef) {
    throw invalid(["body", "annotation_ref"], "is only for annotation feedback (wandb.annotation.<spec name>)");
  }
  if (kind.kind === "runnable") {
    if (!runnableRef) throw invalid(["body", "runnable_ref"], "Field required for runnable feedback", "missing");
    if (runnableRef.name !== kind.name) throw invalid(["body", "runnable_ref"], `must name '${kind.name}' of feedback_type`);
    if (runnableRef.kind === "op" && !callRef) throw invalid(["body", "call_ref"], "Field required for runnable feedback on an op", "missing");
  }

  const payload = checkedPayload(kind, body.payload);
  const bytes = Buffer.byteLength(JSON.stringify(payload));
  if (bytes > MAX_PAYLOAD_BYTES) {
    throw new AppError("payload_too_large", `The payload is ${bytes} bytes of JSON; feedback payloads are at most ${MAX_PAYLOAD_BYTES} (1 MiB).`);
  }

  if (kind.kind === "annotation") {
    const spec = known.specs?.get(annotationRef!.canonical) ?? (await findLiveSpecVersion(access.project.id, annotationRef!.name, annotationRef!.digest!));
    if (!spec) throw notFound(`Annotation spec ${annotationRef!.canonical} not found (or deleted) in project '${project}'.`);
    const problem = specValueProblem(storedDefinition(spec), payload.value);
    if (problem) throw invalid(["body", "payload", "value"], `${problem} (annotation spec '${spec.name}', ${spec.type})`);
    if (spec.type === "preferred_choice" || spec.type === "corrected_reply") {
      const call = known.call !== undefined ? known.call : await recordedCall(access.project.id, subject.name);
      if (spec.type === "preferred_choice") assertPreferenceFits(payload.value as Preference, call?.choices ?? null, subject.name, ["body", "payload", "value"]);
      else if (!isCorrection(payload.value, call?.reply)) throw invalid(["body", "payload", "value"], `${UNCHANGED} (annotation spec '${spec.name}', corrected_reply)`);
    }
  }
  if (body.queue_id && body.queue_id !== known.queueId) await assertLiveQueue(access.project.id, body.queue_id);

  return {
    id: body.id,
    projectId: access.project.id,
    feedbackType: body.feedback_type,
    payload,
    svcRef: subject.canonical,
    annotationRef: annotationRef?.canonical ?? null,
    runnableRef: runnableRef?.canonical ?? null,
    callRef: callRef?.canonical ?? null,
    triggerRef: triggerRef?.canonical ?? null,
    queueId: body.queue_id ?? null,
    creator: body.creator ?? null,
  };
}
