import type { Principal } from "@/lib/auth/principal";
import { splitProjectRef } from "@/lib/auth/names";
import { callDetail } from "@/lib/calls/get-call";
import { getDatabase } from "@/lib/db/client";
import type { Call } from "@/lib/db/generated/client";
import { resolveQueue } from "./queue-access";
import { itemCallRef, myItemFeedback } from "./item-feedback";
import type { ItemWithCall } from "./item-schemas";
import { readItem } from "./item-rows";

// GET /annotation_queues/{queue_id}/items/{item_id}: what the annotation screen shows — the item,
// its call (messages, answer, request and response, as GET /v1/calls/{id} returns it: annotators
// reach their items' calls only this way), the queue's display fields resolved against the call,
// and the caller's own annotations of it (to edit a submitted item).

/** The value at a dotted path (keys, and indices into arrays); null when the path names nothing. */
export function valueAtPath(root: unknown, path: string): unknown {
  let value = root;
  for (const key of path.split(".")) {
    if (Array.isArray(value) && /^\d+$/.test(key)) value = value[Number(key)];
    else if (typeof value === "object" && value !== null && !Array.isArray(value) && Object.hasOwn(value, key)) value = (value as Record<string, unknown>)[key];
    else return null;
  }
  return value ?? null;
}

export async function getItemWithCall(principal: Principal, queueId: string, itemId: string): Promise<ItemWithCall> {
  const access = await resolveQueue(principal, queueId, "annotate");
  const item = await readItem(access, principal.user.id, itemId);
  // The item's call exists (deleting a call deletes its queue items) and is of the queue's project.
  const [row] = await getDatabase().sql.query<Call>(`SELECT * FROM "Call" WHERE id = $1::uuid`, [item.call_id]);
  const call = await callDetail({ ...row, project: { name: splitProjectRef(access.project).project, teamId: access.team.id, team: { name: access.team.name } } });
  return {
    item,
    call,
    display: access.queue.displayFields.map((path) => ({ path, value: valueAtPath(call, path) })),
    mine: await myItemFeedback(access, itemCallRef(access, item.call_id), principal.user.id),
  };
}
