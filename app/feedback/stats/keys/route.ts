// POST /feedback/stats/keys — the payload paths of a project's feedback, for building metrics
import { handle } from "@/lib/http/handle";
import { payloadKeys } from "@/lib/feedback/stats-payload-keys";
import { feedbackPayloadKeysOp } from "@/lib/feedback/stats-operations";

export const POST = handle(feedbackPayloadKeysOp, ({ principal, body }) => payloadKeys(principal, body));
