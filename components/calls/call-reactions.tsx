"use client";

import { useCall } from "@/components/calls/queries";
import { ReactionButtons } from "@/components/calls/reaction-buttons";

// Thumbs on a call known only by its id (the playground's answers: the `anneal-call-id` response
// header): the call is read for its project and ref, which feedback names it by.

export function CallReactions({ callId }: { callId: string }) {
  const call = useCall(callId);
  if (!call.data) return null;
  return <ReactionButtons call={call.data} compact />;
}
