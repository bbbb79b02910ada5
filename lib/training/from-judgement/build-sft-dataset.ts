// POST /v1/preview/judgement/sft-dataset: an SFT dataset from human judgement, saved as an uploaded
// JSONL file (purpose fine-tune, the format SFT jobs read) that carries its lineage. A call is used
// when its combined annotation passes the rule (the model's reply is trained), or when it has a
// corrected reply that differs from the model's (the correction is trained, whatever the rule says:
// it is a person's answer, not the model's). A correction equal to the model's reply, whitespace
// aside, is none (lib/feedback/corrections.ts): rows stored before writes left those out.
import type { Principal } from "@/lib/auth/principal";
import { getDatabase, getDb } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { isCorrection } from "@/lib/feedback/corrections";
import { createFile } from "@/lib/files/files";
import { callToExample } from "@/lib/training/sft/call-to-example";
import { sftExampleSchema } from "@/lib/training/sft/tokenize-sft-example";
import { combineValues, newestText, type AnnotationRow } from "./combine-annotations";
import { byCall, loadAnnotations, resolveJudgedCalls, type JudgedCalls } from "./judged-calls";
import { passesRule, requireSpec, resolveRule, valueKind } from "./judgement-rule";
import { judgementSource, LeftOutTally } from "./lineage";
import { recordedTemplateKwargs, TEMPLATE_INPUT_COLUMNS, type TemplateInputs } from "./recorded-template";
import type { LeftOutReason, ResolvedRule, SftDatasetBody, SftDatasetDto } from "./schemas";

type Message = Record<string, unknown>;
interface RecordedReply extends TemplateInputs {
  id: string;
  messages: Message[] | null;
  tools: unknown[] | null;
  reply: Message | null;
}

async function loadReplies(calls: JudgedCalls): Promise<Map<string, RecordedReply>> {
  const rows = await getDatabase().sql.query<RecordedReply>(
    `SELECT id, inputs->'messages' AS messages, inputs->'tools' AS tools, ${TEMPLATE_INPUT_COLUMNS}, output #> '{choices,0,message}' AS reply
       FROM "Call" WHERE id = ANY($1::uuid[]) AND "projectId" = $2::uuid`,
    [calls.callIds, calls.projectId],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

const replyText = (reply: Message | null) => (reply && typeof reply.content === "string" ? reply.content : null);

/** The example a call gives (its messages, then `answer` or the model's reply), or null if it is not one SFT reads. */
function example(call: RecordedReply, correction: string | null): object | null {
  const messages = Array.isArray(call.messages) ? call.messages : [];
  const shaped = callToExample({ messages, output: correction === null ? call.reply : { role: "assistant", content: correction } });
  if (!shaped) return null;
  const templateKwargs = recordedTemplateKwargs(call);
  const built = {
    ...shaped,
    ...(Array.isArray(call.tools) && call.tools.length && { tools: call.tools }),
    ...(templateKwargs && { chat_template_kwargs: templateKwargs }),
  };
  return sftExampleSchema.safeParse(built).success ? built : null;
}

/** Why an uncorrected call is left out by the rule, or null when it passes. */
function ruleVerdict(rule: ResolvedRule | null, rows: AnnotationRow[]): LeftOutReason | null {
  if (!rule) return "not_corrected";
  const combined = combineValues(valueKind(rule.type), rows.filter((row) => row.spec === rule.spec).map((row) => row.value));
  if (!combined) return "not_annotated";
  if ("tie" in combined) return "tie";
  return passesRule(rule, combined.value) ? null : "failed_rule";
}

const defaultFilename = (calls: JudgedCalls) =>
  `judged-${(calls.queue?.name ?? calls.project).replace(/[^A-Za-z0-9._-]+/g, "-")}-${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl`;

export async function buildSftDataset(principal: Principal, body: SftDatasetBody): Promise<SftDatasetDto> {
  const calls = await resolveJudgedCalls(principal, body);
  const rule: ResolvedRule | null = body.rule ? await resolveRule(calls.projectId, body.rule) : null;
  const fixSpec = body.corrected_reply_spec ? (await requireSpec(calls.projectId, body.corrected_reply_spec, ["corrected_reply"], ["body", "corrected_reply_spec"])).name : null;
  const specs = [...new Set([rule?.spec, fixSpec].filter((s): s is string => Boolean(s)))];
  const annotations = byCall(await loadAnnotations(calls, specs));
  const replies = await loadReplies(calls);

  const lines: string[] = [];
  const used: AnnotationRow[] = [];
  const leftOut = new LeftOutTally();
  let corrected = 0;
  for (const callId of calls.callIds) {
    const call = replies.get(callId)!;
    const rows = (annotations.get(callId) ?? []).filter((row) => row.choice === null);
    const fix = fixSpec ? newestText(rows.filter((row) => row.spec === fixSpec)) : null;
    const correction = isCorrection(fix, replyText(call.reply)) ? fix : null;
    const refused = correction === null ? ruleVerdict(rule, rows) : null;
    if (refused) {
      leftOut.add(refused, callId);
      continue;
    }
    const line = example(call, correction);
    if (!line) {
      leftOut.add(call.reply || correction !== null ? "not_trainable" : "no_reply", callId);
      continue;
    }
    lines.push(JSON.stringify(line));
    used.push(...rows);
    if (correction !== null) corrected += 1;
  }

  const counts = { matched: calls.callIds.length, used: lines.length, corrected };
  const source = judgementSource(calls, { kind: "sft_from_judgement", rule, correctedReplySpec: fixSpec, specs, feedback: used, counts, leftOut: leftOut.list() });
  let file: SftDatasetDto["file"] = null;
  if (lines.length > 0) {
    const bytes = new File([lines.join("\n") + "\n"], body.filename ?? defaultFilename(calls), { type: "application/jsonl" });
    file = await createFile(principal, { file: bytes, purpose: "fine-tune", team: calls.teamName });
    await getDb().file.update({ where: { id: file.id }, data: { source: source as Prisma.InputJsonValue } });
  }
  return { file, ...counts, left_out: source.left_out, source };
}
