import type { LoggedTrajectory } from "@/components/models/queries";
import { MetricValues } from "@/components/models/metric-values";

// One logged trajectory as a chat transcript: the messages around the model's choices (the
// trained part, marked), then its reward and metrics.

type Item = LoggedTrajectory["messages_and_choices"][number];
type ToolCall = { function: { name: string; arguments?: string | null } };

const isChoice = (item: Item): item is Extract<Item, { message: unknown }> => "message" in item && !("role" in item);

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === "string" ? part.text : "")).join("");
  return "";
}

const ROLE_STYLE: Record<string, string> = {
  system: "bg-zinc-50 text-zinc-600 ring-zinc-200",
  user: "bg-white text-zinc-800 ring-zinc-200",
  assistant: "bg-zinc-50 text-zinc-800 ring-zinc-200",
  tool: "bg-amber-50/60 text-zinc-800 ring-amber-200",
};

function Turn({ role, text, toolCalls, choice, finishReason }: { role: string; text: string; toolCalls?: ToolCall[] | null; choice?: boolean; finishReason?: string | null }) {
  return (
    <div data-testid={choice ? "transcript-choice" : "transcript-message"} className={`rounded-lg px-3 py-2 ring-1 ${choice ? "bg-brand-50/50 text-zinc-900 ring-brand-200" : (ROLE_STYLE[role] ?? ROLE_STYLE.user)}`}>
      <div className="mb-0.5 flex items-center gap-2 text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">
        {role}
        {choice && <span className="rounded bg-brand-100 px-1 text-[10px] text-brand-700 normal-case">model choice{finishReason ? ` · ${finishReason}` : ""}</span>}
      </div>
      {text ? <p className="text-sm leading-6 break-words whitespace-pre-wrap">{text}</p> : !toolCalls?.length && <p className="text-sm text-zinc-400 italic">(empty)</p>}
      {toolCalls?.map((call, i) => (
        <pre key={i} className="mt-1 overflow-x-auto rounded bg-zinc-900 px-2 py-1 font-mono text-[11px] text-zinc-100">
          {call.function.name}({call.function.arguments ?? ""})
        </pre>
      ))}
    </div>
  );
}

export function TrajectoryTranscript({ trajectory, index }: { trajectory: LoggedTrajectory; index: number }) {
  return (
    <article aria-label={`Trajectory ${index + 1}`} className="rounded-lg border border-zinc-200 bg-white p-3">
      <header className="mb-2 flex flex-wrap items-center gap-2">
        <h4 className="text-xs font-semibold text-zinc-700">Trajectory {index + 1}</h4>
        <span className="rounded bg-zinc-900 px-1.5 py-0.5 font-mono text-[11px] text-white tabular-nums">reward {trajectory.reward}</span>
        {trajectory.metrics && <MetricValues metrics={trajectory.metrics} max={6} />}
      </header>
      <div className="space-y-1.5">
        {trajectory.messages_and_choices.map((item, i) =>
          isChoice(item) ? (
            <Turn key={i} role={item.message.role ?? "assistant"} text={textOf(item.message.content)} toolCalls={item.message.tool_calls as ToolCall[] | null} choice finishReason={item.finish_reason} />
          ) : (
            <Turn key={i} role={item.role} text={textOf(item.content)} toolCalls={item.tool_calls as ToolCall[] | null} />
          ),
        )}
      </div>
      {(trajectory.additional_histories?.length ?? 0) > 0 && (
        <p className="mt-2 text-xs text-zinc-500">+ {trajectory.additional_histories!.length} additional histories (trained with this reward too)</p>
      )}
    </article>
  );
}
