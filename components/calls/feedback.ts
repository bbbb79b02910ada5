"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMe } from "@/components/identity/queries";
import { callKeys } from "@/components/calls/queries";
import { feedbackKeys } from "@/components/feedback/queries";
import { apiFetch } from "@/lib/client/api-fetch";

// A person's judgments of a call, through the feedback API (/feedback/query, create, replace,
// purge): the call's feedback rows, and one's own reaction, note and annotation per spec. Each of
// those is one row per person — changing one's mind replaces one's own row (new value, same
// single row), never adds a second; a row one no longer wants is purged.

export const REACTION = "wandb.reaction.1";
export const NOTE = "wandb.note.1";
export const ANNOTATION_PREFIX = "wandb.annotation.";
export const THUMBS_UP = "👍";
export const THUMBS_DOWN = "👎";

export interface FeedbackRow {
  id: string;
  feedback_type: string;
  payload: Record<string, unknown>;
  wb_user_id: string;
  created_at: string;
  annotation_ref: string | null;
}

/** What is judged: the call's project (`team/project`) and its ref. */
export interface JudgedCall {
  id: string;
  project: string;
  ref: string;
}

const FIELDS = ["id", "feedback_type", "payload", "wb_user_id", "created_at", "annotation_ref"];
/** More than any call gets from people; the newest first. */
const LIMIT = 1000;

const byId = (ids: string[]) => ({ $expr: { $in: [{ $getField: "id" }, ids.map((id) => ({ $literal: id }))] } });

/** Every feedback row on the call, newest first. */
export function useCallFeedback(call: JudgedCall | undefined) {
  return useQuery({
    queryKey: callKeys.feedback(call?.ref ?? ""),
    queryFn: ({ signal }) =>
      apiFetch<{ result: FeedbackRow[] }>("/feedback/query", {
        method: "POST",
        body: {
          project_id: call!.project,
          fields: FIELDS,
          query: { $expr: { $eq: [{ $getField: "svc_ref" }, { $literal: call!.ref }] } },
          sort_by: [{ field: "created_at", direction: "desc" }],
          limit: LIMIT,
        },
        signal,
      }),
    select: (data) => data.result,
    enabled: Boolean(call),
  });
}

/** The signed-in person's rows of one kind (a type, and for annotations the spec's type). */
export function useMyFeedback(call: JudgedCall | undefined) {
  const feedback = useCallFeedback(call);
  const me = useMe();
  const userId = me.data?.user.id;
  const mine = (type: string) => (feedback.data ?? []).filter((row) => row.wb_user_id === userId && row.feedback_type === type);
  // `settled`: loaded and not being read again — what a change must start from.
  return { feedback, mine, ready: Boolean(feedback.data && userId), settled: Boolean(feedback.data && userId) && !feedback.isFetching };
}

export interface OwnFeedback {
  type: string;
  /** null removes one's row(s) of this type. */
  payload: Record<string, unknown> | null;
  annotationRef?: string;
  /** One's current rows of this type, newest first. */
  current: FeedbackRow[];
}

/** Sets (or removes) one's own feedback of a type on the call: replaces one's newest row of it,
 *  creates one when there is none, and purges any older duplicates. */
export function useSetOwnFeedback(call: JudgedCall) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ type, payload, annotationRef, current }: OwnFeedback) => {
      const [keep, ...extra] = current;
      const stale = payload === null ? current : extra;
      if (payload !== null) {
        const body = { project_id: call.project, svc_ref: call.ref, feedback_type: type, payload, ...(annotationRef ? { annotation_ref: annotationRef } : {}) };
        if (keep) await apiFetch("/feedback/replace", { method: "POST", body: { ...body, feedback_id: keep.id } });
        else await apiFetch("/feedback/create", { method: "POST", body });
      }
      if (stale.length) await apiFetch("/feedback/purge", { method: "POST", body: { project_id: call.project, query: byId(stale.map((row) => row.id)) } });
    },
    // Pending until the call's feedback is read again: the next change starts from the rows as
    // they are now (a click before that would replace a row that is gone, or add a second).
    onSettled: () => {
      void client.invalidateQueries({ queryKey: callKeys.detail(call.id) });
      void client.invalidateQueries({ queryKey: callKeys.lists() });
      void client.invalidateQueries({ queryKey: feedbackKeys.all }); // Stats → Feedback counts it
      return client.invalidateQueries({ queryKey: callKeys.feedback(call.ref) });
    },
  });
}
