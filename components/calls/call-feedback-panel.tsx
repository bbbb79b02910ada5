"use client";

import Link from "next/link";
import { AnnotationField } from "@/components/calls/annotation-field";
import { ANNOTATION_PREFIX, useCallFeedback, type JudgedCall } from "@/components/calls/feedback";
import { FeedbackList } from "@/components/calls/feedback-list";
import { NoteEditor } from "@/components/calls/note-editor";
import { useAnnotationSpecs } from "@/components/calls/queries";
import { ReactionButtons } from "@/components/calls/reaction-buttons";
import { Panel } from "@/components/ui/panel";
import { QueryError } from "@/components/ui/query-error";
import { TableSkeleton } from "@/components/ui/skeleton";

// Judging a call: one's thumbs, note and a value for each annotation spec of the project, then
// everyone's feedback on it.

export function CallFeedbackPanel({ call, answer, choiceCount }: { call: JudgedCall; answer: string; choiceCount: number }) {
  const specs = useAnnotationSpecs(call.project);
  const feedback = useCallFeedback(call);
  const team = call.project.split("/")[0];
  const corrections = new Set((specs.data ?? []).filter((spec) => spec.type === "corrected_reply").map((spec) => `${ANNOTATION_PREFIX}${spec.name}`));
  return (
    <div className="space-y-5">
      <Panel title="Your judgment" description="One reaction, one note and one value per spec each: changing your mind replaces yours.">
        <div className="space-y-5 px-4 py-4">
          <div className="flex items-center justify-between gap-3">
            <span className="text-sm font-medium text-zinc-800">Reaction</span>
            <ReactionButtons call={call} />
          </div>
          <NoteEditor call={call} />
          {specs.isError ? (
            <QueryError what="the annotation specs" error={specs.error} retry={() => void specs.refetch()} />
          ) : specs.data?.length ? (
            <div className="space-y-4 border-t border-zinc-100 pt-4">
              {specs.data.map((spec) => (
                <AnnotationField key={spec.name} call={call} spec={spec} answer={answer} choiceCount={choiceCount} />
              ))}
            </div>
          ) : (
            specs.data && (
              <p className="border-t border-zinc-100 pt-4 text-xs text-zinc-500">
                No annotation specs in {call.project} yet: create one with <code className="font-mono">POST /v1/teams/{team}/projects/…/annotation-specs</code> to score calls. <Link href="/queues" className="text-brand-700 hover:underline">Queues</Link> use them too.
              </p>
            )
          )}
        </div>
      </Panel>
      <Panel title="Feedback" description="Everyone's, newest first.">
        {feedback.isPending ? (
          <TableSkeleton label="Loading feedback" />
        ) : feedback.isError ? (
          <QueryError what="the feedback" error={feedback.error} retry={() => void feedback.refetch()} />
        ) : (
          <FeedbackList rows={feedback.data} team={team} answer={answer} corrections={corrections} />
        )}
      </Panel>
    </div>
  );
}
