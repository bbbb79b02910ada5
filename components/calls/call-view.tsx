"use client";

import * as Tooltip from "@radix-ui/react-tooltip";
import { CallAnswer } from "@/components/calls/call-answer";
import { CallFeedbackPanel } from "@/components/calls/call-feedback-panel";
import { CallParameters } from "@/components/calls/call-parameters";
import { CallStatusBadge } from "@/components/calls/call-status-badge";
import { Conversation } from "@/components/calls/conversation";
import { useCall } from "@/components/calls/queries";
import { CopyButton } from "@/components/ui/copy-button";
import { Alert } from "@/components/ui/alert";
import { DetailHeader, DetailLoadError, DetailSkeleton, Fact } from "@/components/ui/detail-page";
import { Panel } from "@/components/ui/panel";
import { RelativeTime } from "@/components/ui/relative-time";
import { formatLatency } from "@/components/calls/format";

// /calls/{id}: one recorded call — the conversation, the answer (text or tokens with logprobs),
// the parameters, latency and usage — and judging it: thumbs, a note, annotation values, and
// everyone's feedback.

export function CallView({ callId }: { callId: string }) {
  const call = useCall(callId);
  if (call.isPending) return <DetailSkeleton label="Loading call" />;
  if (call.isError) {
    return (
      <DetailLoadError
        what="the call"
        error={call.error}
        retry={() => void call.refetch()}
        notFound={{ title: "Call not found", reason: "It belongs to a team you are not in, or it was never recorded.", href: "/calls", link: "All calls" }}
      />
    );
  }
  const data = call.data;
  const answerText = typeof data.output?.content === "string" ? data.output.content : "";
  return (
    <Tooltip.Provider delayDuration={120} skipDelayDuration={60}>
      <div className="space-y-5">
        <DetailHeader
          back={{ href: "/calls", label: "Calls" }}
          title={
            <>
              Call <span className="font-mono text-base font-normal text-zinc-500">{data.id.slice(0, 8)}</span>
            </>
          }
          badge={<CallStatusBadge status={data.status} />}
          subtitle={<p className="mt-1 font-mono text-xs break-all text-zinc-500">{data.ref}</p>}
          actions={<CopyButton value={data.ref} label="Copy ref" />}
        />

        <section className="rounded-xl border border-zinc-200 bg-white px-4 py-4 shadow-xs">
          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-6">
            <Fact label="Project">{data.project}</Fact>
            <Fact label="Model">
              <span className="font-mono text-xs break-all">{data.model}</span>
            </Fact>
            <Fact label="Created">
              <RelativeTime iso={data.created_at} />
            </Fact>
            <Fact label="Latency">
              <span data-testid="call-latency">{formatLatency(data.latency_ms)}</span>
            </Fact>
            <Fact label="Tokens">
              <span className="tabular-nums" data-testid="call-usage">
                {data.usage.prompt_tokens} prompt + {data.usage.completion_tokens} completion
              </span>
            </Fact>
            <Fact label="Checkpoint">{data.checkpoint_step === null ? <span className="text-zinc-400">—</span> : <span className="tabular-nums">step {data.checkpoint_step}</span>}</Fact>
          </dl>
        </section>

        {data.error && <Alert title={data.status === "cancelled" ? "Cancelled" : "The call failed"}>{data.error}</Alert>}

        <div className="grid items-start gap-5 lg:grid-cols-[minmax(0,1fr)_24rem]">
          <div className="min-w-0 space-y-5">
            <Panel title="Conversation" description={`${data.messages.length} message${data.messages.length === 1 ? "" : "s"} sent`}>
              <Conversation messages={data.messages} />
            </Panel>
            <Panel title="Answer">
              <CallAnswer response={data.response} fallback={data.output} />
            </Panel>
            <Panel title="Parameters" description="The request as recorded, after validation and defaults.">
              <CallParameters request={data.request} />
            </Panel>
          </div>
          <CallFeedbackPanel call={data} answer={answerText} choiceCount={Array.isArray(data.response?.choices) ? data.response.choices.length : 0} />
        </div>
      </div>
    </Tooltip.Provider>
  );
}
