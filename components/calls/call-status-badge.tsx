import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { CallStatus } from "@/components/calls/queries";

const TONE: Record<CallStatus, BadgeTone> = { success: "green", error: "red", cancelled: "violet" };

/** A call's status as a coloured pill. */
export function CallStatusBadge({ status }: { status: CallStatus }) {
  return (
    <span data-testid="call-status" data-status={status}>
      <Badge tone={TONE[status]}>{status}</Badge>
    </span>
  );
}
