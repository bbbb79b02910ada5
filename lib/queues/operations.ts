import { MiB } from "@/lib/contract/body-limits";
import { defineOperation } from "@/lib/contract/operation";
import {
  addedItemsSchema, addItemsBody, exportQuery, itemPage, itemParams, itemResponseSchema, itemWithCallSchema, listItemsQuery, nextItemSchema, progressBody,
  removedItemSchema, reviewBody, skipBody, submitBody, submittedSchema,
} from "./item-schemas";
import { createQueueBody, deletedQueueSchema, listQueuesQuery, queuePage, queueParams, queueSchema, queueStatsSchema, updateQueueBody } from "./queue-schemas";

// Annotation queues (docs/annotation-queues.md): W&B Weave's progress route (spec §4.6) and what the
// console and annotators need around it, under /annotation_queues with Basic auth (and the console
// session), no /v1, as the spec's annotation-queue routes. Annotators reach the queues assigned to
// them; members and admins every queue of their team, and only they change queues and their items.

const TAG = "Annotation queues";

export const listQueuesOp = defineOperation({
  id: "listAnnotationQueues", method: "GET", path: "/annotation_queues", tag: TAG, auth: "basic",
  summary: "The annotation queues the caller reaches (annotators: those assigned to them), oldest first, with their items by status",
  query: listQueuesQuery, response: queuePage,
});

export const createQueueOp = defineOperation({
  id: "createAnnotationQueue", method: "POST", path: "/annotation_queues", tag: TAG, auth: "basic", status: 201,
  summary: "Create an annotation queue in a project: instructions, the annotation specs asked for (required or optional), display fields, annotations needed per item, assigned annotators (members and admins)",
  body: createQueueBody, response: queueSchema,
});

export const getQueueOp = defineOperation({
  id: "getAnnotationQueue", method: "GET", path: "/annotation_queues/{queue_id}", tag: TAG, auth: "basic",
  summary: "An annotation queue",
  params: queueParams, response: queueSchema,
});

export const updateQueueOp = defineOperation({
  id: "updateAnnotationQueue", method: "PATCH", path: "/annotation_queues/{queue_id}", tag: TAG, auth: "basic",
  summary: "Change an annotation queue's settings; specs sent are pinned to their current versions, annotators replace the assignment (members and admins)",
  params: queueParams, body: updateQueueBody, response: queueSchema,
});

export const deleteQueueOp = defineOperation({
  id: "deleteAnnotationQueue", method: "DELETE", path: "/annotation_queues/{queue_id}", tag: TAG, auth: "basic",
  summary: "Delete an annotation queue: gone from every route; its feedback stays (members and admins)",
  params: queueParams, response: deletedQueueSchema,
});

export const queueStatsOp = defineOperation({
  id: "getAnnotationQueueStats", method: "GET", path: "/annotation_queues/{queue_id}/stats", tag: TAG, auth: "basic",
  summary: "A queue's items by status (total, completed, in progress, skipped by everyone, remaining), each person's work, and exact agreement per spec",
  params: queueParams, response: queueStatsSchema,
});

export const listItemsOp = defineOperation({
  id: "listAnnotationQueueItems", method: "GET", path: "/annotation_queues/{queue_id}/items", tag: TAG, auth: "basic",
  summary: "A queue's items with position_in_queue, filtered by status and the caller's own state, in order of addition or by the calls' start",
  params: queueParams, query: listItemsQuery, response: itemPage,
});

export const exportAnnotationsOp = defineOperation({
  id: "exportAnnotationQueueAnnotations", method: "GET", path: "/annotation_queues/{queue_id}/export", tag: TAG, auth: "basic",
  summary: "A queue's annotations as a CSV or JSONL file: per person and item, the prompt, the answer, the correction, the values, the note and the review (annotators: their own)",
  params: queueParams, query: exportQuery,
});

export const addItemsOp = defineOperation({
  id: "addAnnotationQueueItems", method: "POST", path: "/annotation_queues/{queue_id}/items", tag: TAG, auth: "basic",
  summary: "Add calls of the queue's project, by id or by a call-log filter; calls already queued are skipped and counted (members and admins)",
  params: queueParams, body: addItemsBody, response: addedItemsSchema,
});

export const removeItemOp = defineOperation({
  id: "removeAnnotationQueueItem", method: "DELETE", path: "/annotation_queues/{queue_id}/items/{item_id}", tag: TAG, auth: "basic",
  summary: "Remove an item from a queue; its progress and feedback stay (members and admins)",
  params: itemParams, response: removedItemSchema,
});

export const getItemOp = defineOperation({
  id: "getAnnotationQueueItem", method: "GET", path: "/annotation_queues/{queue_id}/items/{item_id}", tag: TAG, auth: "basic",
  summary: "An item with its call (messages, answer, request, response), the display fields' values and the caller's own annotations of it",
  params: itemParams, response: itemWithCallSchema,
});

export const itemProgressOp = defineOperation({
  id: "updateAnnotationQueueItemProgress", method: "POST", path: "/annotation_queues/{queue_id}/items/{item_id}/progress", tag: TAG, auth: "basic",
  summary: "Set the caller's progress on an item: none → any state, in_progress → completed or skipped, the same state again changes nothing, anything else is 400",
  params: itemParams, body: progressBody, response: itemResponseSchema,
});

export const submitItemOp = defineOperation({
  id: "submitAnnotationQueueItem", method: "POST", path: "/annotation_queues/{queue_id}/items/{item_id}/submit", tag: TAG, auth: "basic",
  summary: "Annotate an item: a feedback row per spec value (and an optional note) and the caller's progress completed, in one transaction; again after completing it replaces the caller's rows",
  params: itemParams, body: submitBody, response: submittedSchema, bodyLimit: 2 * MiB,
});

export const skipItemOp = defineOperation({
  id: "skipAnnotationQueueItem", method: "POST", path: "/annotation_queues/{queue_id}/items/{item_id}/skip", tag: TAG, auth: "basic",
  summary: "Skip an item (final for the caller; it goes to the others), with an optional reason stored as a note",
  params: itemParams, body: skipBody, response: itemResponseSchema,
});

export const reviewItemOp = defineOperation({
  id: "reviewAnnotationQueueItem", method: "POST", path: "/annotation_queues/{queue_id}/items/{item_id}/review", tag: TAG, auth: "basic",
  summary: "Accept or reject an item's annotations with a note (members and admins, never annotators); a rejected item returns to the annotators who wrote it; 400 until the item has the annotations the queue needs",
  params: itemParams, body: reviewBody, response: itemResponseSchema,
});

export const releaseItemOp = defineOperation({
  id: "releaseAnnotationQueueItem", method: "POST", path: "/annotation_queues/{queue_id}/items/{item_id}/release", tag: TAG, auth: "basic",
  summary: "Give up one's claim on an unfinished item: it returns to the pool",
  params: itemParams, response: itemResponseSchema,
});

export const claimNextItemOp = defineOperation({
  id: "claimNextAnnotationQueueItem", method: "POST", path: "/annotation_queues/{queue_id}/next", tag: TAG, auth: "basic",
  summary: "Claim the next item for the caller (their own live claim first, then the first item they have not finished that still needs annotations and nobody else holds); null when none is left",
  params: queueParams, response: nextItemSchema,
});
