"use client";

import { ANNOTATION_PREFIX, NOTE, REACTION, type FeedbackRow } from "@/components/calls/feedback";
import { JsonBlock } from "@/components/calls/message-content";
import { useMe, useMembers } from "@/components/identity/queries";
import { Badge } from "@/components/ui/badge";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";
import { isCorrection } from "@/lib/feedback/corrections";

// Everyone's feedback on a call, newest first: what kind, what it says, who gave it and when. A
// corrected reply that is the model's reply (stored before writes refused those) reads "unchanged".

function kindOf(row: FeedbackRow): { label: string; tone: "green" | "blue" | "violet" | "neutral" } {
  if (row.feedback_type === REACTION) return { label: "reaction", tone: "green" };
  if (row.feedback_type === NOTE) return { label: "note", tone: "blue" };
  if (row.feedback_type.startsWith(ANNOTATION_PREFIX)) return { label: row.feedback_type.slice(ANNOTATION_PREFIX.length), tone: "violet" };
  return { label: row.feedback_type, tone: "neutral" };
}

function Value({ row, answer, corrections }: { row: FeedbackRow; answer: string; corrections: ReadonlySet<string> }) {
  const { payload } = row;
  if (corrections.has(row.feedback_type) && !isCorrection(payload.value, answer)) {
    return (
      <span className="text-sm text-zinc-500 italic" data-testid="unchanged-correction">
        Unchanged: the model&apos;s reply
      </span>
    );
  }
  if (row.feedback_type === REACTION) return <span className="text-base">{String(payload.emoji ?? "")}</span>;
  if (row.feedback_type === NOTE) return <p className="text-sm break-words whitespace-pre-wrap">{String(payload.note ?? "")}</p>;
  if (typeof payload.value === "string") return <p className="text-sm break-words whitespace-pre-wrap">{payload.value}</p>;
  if ("value" in payload && (typeof payload.value !== "object" || payload.value === null)) return <span className="font-mono text-sm">{String(payload.value)}</span>;
  return <JsonBlock value={payload} />;
}

/** `corrections`: the feedback types of the project's corrected_reply specs; `answer`: the reply they correct. */
export function FeedbackList({ rows, team, answer, corrections }: { rows: FeedbackRow[]; team: string; answer: string; corrections: ReadonlySet<string> }) {
  const me = useMe();
  const members = useMembers(team);
  const nameOf = (userId: string) =>
    userId === me.data?.user.id ? "you" : (members.data?.find((m) => m.user_id === userId)?.username ?? `${userId.slice(0, 8)}…`);
  if (rows.length === 0) return <p className="px-4 py-6 text-center text-sm text-zinc-500">No feedback yet.</p>;
  return (
    <Table label="Feedback">
      <THead>
        <Th>Kind</Th>
        <Th>Value</Th>
        <Th>By</Th>
        <Th>When</Th>
      </THead>
      <tbody>
        {rows.map((row) => {
          const kind = kindOf(row);
          return (
            <Tr key={row.id} data-testid="feedback-row" data-type={row.feedback_type}>
              <Td>
                <Badge tone={kind.tone}>{kind.label}</Badge>
              </Td>
              <Td className="max-w-md">
                <Value row={row} answer={answer} corrections={corrections} />
              </Td>
              <Td className="text-xs whitespace-nowrap text-zinc-600">{nameOf(row.wb_user_id)}</Td>
              <Td className="text-xs whitespace-nowrap text-zinc-500">
                <RelativeTime iso={row.created_at} />
              </Td>
            </Tr>
          );
        })}
      </tbody>
    </Table>
  );
}
