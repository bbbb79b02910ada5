import Link from "next/link";
import { LeftOutList } from "@/components/jobs/left-out-list";
import { Fact } from "@/components/ui/detail-page";
import { Panel } from "@/components/ui/panel";
import type { JudgementSource } from "@/lib/training/from-judgement/schemas";

// Where a job's training data came from, when Anneal built it from people's judgement: the queue
// and whether of its reviewer-accepted items only (or the project and call-log filter), the rule, and the annotations it read, with links to them
// on the Calls page and in Stats → Feedback.

const LINK = "text-brand-700 hover:underline";

const query = (params: Record<string, string | undefined>) =>
  new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => Boolean(entry[1]))).toString();

/** The call-log filter as the Calls page's URL holds it (the page shows the filters it knows). */
function callsHref(source: JudgementSource, feedbackType?: string): string {
  const filter = (source.filter ?? {}) as Record<string, unknown>;
  const text = (key: string) => (filter[key] === undefined ? undefined : String(filter[key]));
  return `/calls?${query({ project: source.project, model: text("model"), status: text("status"), feedback_type: feedbackType ?? text("feedback_type"), feedback_value: feedbackType ? undefined : text("feedback_value") })}`;
}

const filterText = (filter: Record<string, unknown>) =>
  Object.entries(filter)
    .map(([key, value]) => `${key} = ${String(value)}`)
    .join(", ");

export function JobLineage({ source }: { source: JudgementSource }) {
  const counts = Object.entries(source.counts);
  return (
    <Panel title="Training data from judgement" description={source.kind === "sft_from_judgement" ? "An SFT dataset built from annotated calls" : "RL groups built from human scores"}>
      <dl className="grid grid-cols-2 gap-4 px-4 py-3 sm:grid-cols-4" aria-label="Lineage">
        <Fact label={source.queue ? "Queue" : "Calls"}>
          {source.queue ? (
            <>
              <Link href={`/queues/${source.queue.id}`} className={LINK}>
                {source.queue.name}
              </Link>
              <span className="text-zinc-500">{source.accepted_only ? " (accepted items only)" : " (all items)"}</span>
            </>
          ) : (
            <Link href={callsHref(source)} className={LINK}>
              {source.project}
              {source.filter && Object.keys(source.filter).length > 0 && <span className="text-zinc-500"> ({filterText(source.filter)})</span>}
            </Link>
          )}
        </Fact>
        {source.rule && <Fact label="Rule">{source.rule.text}</Fact>}
        {source.corrected_reply_spec && <Fact label="Corrected replies">{source.corrected_reply_spec}</Fact>}
        {source.reward_spec && <Fact label="Reward">{source.reward_spec}</Fact>}
        <Fact label="Feedback">
          <span className="tabular-nums">{source.feedback.count}</span> annotations
        </Fact>
        {counts.map(([key, value]) => (
          <Fact key={key} label={key}>
            <span className="tabular-nums">{value}</span>
          </Fact>
        ))}
      </dl>
      <div className="space-y-2 border-t border-zinc-100 px-4 py-3 text-xs">
        <p className="flex flex-wrap gap-x-4 gap-y-1">
          {source.feedback.types.map((type) => (
            <span key={type} className="flex gap-2">
              <span className="font-mono text-zinc-600">{type}</span>
              <Link href={callsHref(source, type)} className={LINK}>
                calls
              </Link>
              <Link href={`/stats?${query({ tab: "feedback", project: source.project, feedback_type: type })}`} className={LINK}>
                Stats → Feedback
              </Link>
            </span>
          ))}
        </p>
        <LeftOutList leftOut={source.left_out} />
      </div>
    </Panel>
  );
}
