import type { FormState } from "@/lib/client/annotation-form";

// An unsubmitted form survives a reload: kept in localStorage per user, queue and item (so two
// people on one browser, or one item in two queues, never share a draft), dropped once the item
// is submitted or skipped. Storage errors (private mode, quota) only lose the draft.

const key = (userId: string, queueId: string, itemId: string) => `anneal.annotate.draft.v1:${userId}:${queueId}:${itemId}`;

export interface DraftKey {
  userId: string;
  queueId: string;
  itemId: string;
}

export function readDraft({ userId, queueId, itemId }: DraftKey): FormState | null {
  try {
    const text = window.localStorage.getItem(key(userId, queueId, itemId));
    if (!text) return null;
    const draft = JSON.parse(text) as Partial<FormState>;
    if (typeof draft !== "object" || draft === null || typeof draft.values !== "object" || draft.values === null) return null;
    return { values: draft.values, note: typeof draft.note === "string" ? draft.note : "" };
  } catch {
    return null;
  }
}

export function writeDraft({ userId, queueId, itemId }: DraftKey, form: FormState) {
  try {
    window.localStorage.setItem(key(userId, queueId, itemId), JSON.stringify(form));
  } catch {
    // the draft is a convenience; the form still works
  }
}

export function clearDraft({ userId, queueId, itemId }: DraftKey) {
  try {
    window.localStorage.removeItem(key(userId, queueId, itemId));
  } catch {
    // nothing to clear
  }
}
