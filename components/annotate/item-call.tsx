"use client";

import { CallAnswer } from "@/components/calls/call-answer";
import { Conversation } from "@/components/calls/conversation";
import { JsonBlock, RichText } from "@/components/calls/message-content";
import { AnswerChoices, answerChoices } from "@/components/annotate/answer-choices";
import type { ItemWithCall } from "@/components/annotate/queries";
import type { PreferenceInput } from "@/lib/client/annotation-form";
import { Panel } from "@/components/ui/panel";

// What an annotator judges: the queue's display fields first (the parts of the call it asks
// about), then the conversation sent and the answer — every choice side by side when n ≥ 2,
// marked with the preference the form holds.

function DisplayFields({ display }: { display: ItemWithCall["display"] }) {
  return (
    <Panel title="Display fields">
      <dl className="divide-y divide-zinc-100" data-testid="display-fields">
        {display.map(({ path, value }) => (
          <div key={path} className="space-y-1 px-4 py-3">
            <dt className="font-mono text-xs text-zinc-500">{path}</dt>
            <dd className="text-sm text-zinc-900">{typeof value === "string" ? <RichText text={value} /> : value === null || value === undefined ? <span className="text-zinc-400">—</span> : <JsonBlock value={value} />}</dd>
          </div>
        ))}
      </dl>
    </Panel>
  );
}

export function ItemCall({ data, preference }: { data: ItemWithCall; preference?: PreferenceInput }) {
  const { call } = data;
  const choices = answerChoices(call);
  return (
    <div className="min-w-0 space-y-5">
      {data.display.length > 0 && <DisplayFields display={data.display} />}
      <Panel title="Conversation" description={`${call.messages.length} message${call.messages.length === 1 ? "" : "s"} · ${call.model}`}>
        <Conversation messages={call.messages} />
      </Panel>
      <Panel title={choices.length >= 2 ? `Answers (${choices.length} choices)` : "Answer"}>
        {choices.length >= 2 ? <AnswerChoices choices={choices} preference={preference} /> : <CallAnswer response={call.response} fallback={call.output} />}
      </Panel>
    </div>
  );
}
