import { z } from "zod";
import { MiB } from "@/lib/contract/body-limits";
import { defineOperation } from "@/lib/contract/operation";
import {
  annotationSpecPage, annotationSpecSchema, createSpecBody, deletedSpecSchema, listSpecsQuery, specNameParams, specParams, updateSpecBody,
} from "./annotation-spec-schemas";
import {
  createFeedbackBody, feedbackQueryResult, purgeFeedbackBody, queryFeedbackBody, replaceFeedbackBody, writtenFeedbackSchema,
} from "./schemas";

// Feedback in W&B Weave's shapes (Basic auth, no /v1, as the spec's feedback routes), and the
// annotation specs annotations are given against (an Anneal resource of a project, under /v1).

// A payload may be 1 MiB of JSON (413 beyond, with its own message); the rest of the body rides on top.
const FEEDBACK_BODY_LIMIT = 2 * MiB;

export const createFeedbackOp = defineOperation({
  id: "createFeedback", method: "POST", path: "/feedback/create", tag: "Feedback", auth: "basic",
  summary: "Record feedback on a call, op or object of a project (any role of the team; wb_user_id is the caller)",
  body: createFeedbackBody, response: writtenFeedbackSchema, bodyLimit: FEEDBACK_BODY_LIMIT, keepNullsIn: ["payload"],
});

export const replaceFeedbackOp = defineOperation({
  id: "replaceFeedback", method: "POST", path: "/feedback/replace", tag: "Feedback", auth: "basic",
  summary: "Replace a feedback row: validate, then delete feedback_id and insert the new row (new id) in one transaction; annotators replace only their own rows",
  body: replaceFeedbackBody, response: writtenFeedbackSchema, bodyLimit: FEEDBACK_BODY_LIMIT, keepNullsIn: ["payload"],
});

export const queryFeedbackOp = defineOperation({
  id: "queryFeedback", method: "POST", path: "/feedback/query", tag: "Feedback", auth: "basic",
  summary: "A project's feedback matching a query (W&B Weave's query language), sorted and paged",
  body: queryFeedbackBody, response: feedbackQueryResult, keepNullsIn: ["query"],
});

export const purgeFeedbackOp = defineOperation({
  id: "purgeFeedback", method: "POST", path: "/feedback/purge", tag: "Feedback", auth: "basic",
  summary: "Delete feedback rows by id (members and admins: any row; annotators: their own)",
  body: purgeFeedbackBody, response: z.object({}), keepNullsIn: ["query"],
});

export const listAnnotationSpecsOp = defineOperation({
  id: "listAnnotationSpecs", method: "GET", path: "/v1/teams/{team}/projects/{project}/annotation-specs", tag: "Feedback", auth: "bearer",
  summary: "A project's annotation specs (current versions, by name)",
  params: specParams, query: listSpecsQuery, response: annotationSpecPage,
});

export const createAnnotationSpecOp = defineOperation({
  id: "createAnnotationSpec", method: "POST", path: "/v1/teams/{team}/projects/{project}/annotation-specs", tag: "Feedback", auth: "bearer", status: 201,
  summary: "Create an annotation spec: numeric (min, max, integer), boolean, categorical (options), text or corrected_reply (max_length), or preferred_choice (for calls with n >= 2) (members and admins)",
  params: specParams, body: createSpecBody, response: annotationSpecSchema,
});

export const getAnnotationSpecOp = defineOperation({
  id: "getAnnotationSpec", method: "GET", path: "/v1/teams/{team}/projects/{project}/annotation-specs/{name}", tag: "Feedback", auth: "bearer",
  summary: "An annotation spec's current version",
  params: specNameParams, response: annotationSpecSchema,
});

export const updateAnnotationSpecOp = defineOperation({
  id: "updateAnnotationSpec", method: "PUT", path: "/v1/teams/{team}/projects/{project}/annotation-specs/{name}", tag: "Feedback", auth: "bearer",
  summary: "Redefine an annotation spec: a changed definition is a new version with a new ref; earlier annotations keep theirs (members and admins)",
  params: specNameParams, body: updateSpecBody, response: annotationSpecSchema,
});

export const deleteAnnotationSpecOp = defineOperation({
  id: "deleteAnnotationSpec", method: "DELETE", path: "/v1/teams/{team}/projects/{project}/annotation-specs/{name}", tag: "Feedback", auth: "bearer",
  summary: "Delete an annotation spec: it takes no new annotations; existing feedback is kept (members and admins)",
  params: specNameParams, response: deletedSpecSchema,
});
