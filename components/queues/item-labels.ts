import type { BadgeTone } from "@/components/ui/badge";
import type { ItemStatus, ReviewState } from "@/lib/queues/item-schemas";

// How an item's status and review read in the console.

export const ITEM_STATUS_LABEL: Record<ItemStatus, string> = { unstarted: "Not started", in_progress: "In progress", completed: "Completed", skipped: "Skipped", rejected: "Rejected" };
export const ITEM_STATUS_TONE: Record<ItemStatus, BadgeTone> = { unstarted: "neutral", in_progress: "blue", completed: "green", skipped: "violet", rejected: "red" };
export const REVIEW_STATE_LABEL: Record<ReviewState, string> = { pending: "Not reviewed", accepted: "Accepted", rejected: "Rejected" };
export const REVIEW_STATE_TONE: Record<ReviewState, BadgeTone> = { pending: "neutral", accepted: "green", rejected: "red" };
