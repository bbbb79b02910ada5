// RL from human scores: trajectory groups built from recorded calls, each trajectory's reward the
// combined annotation of a numeric or boolean spec (true = 1, false = 0). A group is the choices of
// one call (n ≥ 2), each scored on its own (a feedback row whose ref is the call's followed by
// `/choice/<index>`), or the single-choice calls with the same prompt (messages, tools and
// chat_template_kwargs), scored on the call. A trajectory is the request's messages, tools and
// chat_template_kwargs (recorded-template.ts) and the Choice as recorded — logprobs and token ids
// included — so the RL job trains it as it trains a client's rollout. A group of one
// trajectory has nothing to compare its reward with: it is listed and left out, never trained.
import type { Principal } from "@/lib/auth/principal";
import { isJsonObject, type JsonObject } from "@/lib/call-log/json-object";
import { fromStoredOutput } from "@/lib/call-log/stored-output";
import { getDatabase } from "@/lib/db/client";
import { trajectorySchema, type Trajectory, type TrajectoryGroup } from "@/lib/training/trajectories/schemas";
import { combineValues, type AnnotationRow } from "./combine-annotations";
import { byCall, loadAnnotations, resolveJudgedCalls, type JudgedCalls } from "./judged-calls";
import { requireSpec, valueKind } from "./judgement-rule";
import { judgementSource, LeftOutTally } from "./lineage";
import { recordedTemplateKwargs, TEMPLATE_INPUT_COLUMNS, type TemplateInputs } from "./recorded-template";
import { PREVIEW_CHARS } from "@/lib/calls/schemas";
import type { GroupPreview, JudgementSource, LeftOutReason, RlGroupsBody, RlGroupsDto } from "./schemas";

interface RecordedCall {
  id: string;
  messages: JsonObject[];
  tools: unknown[] | null;
  /** What else its prompt was rendered with (recorded-template.ts). */
  templateKwargs: JsonObject | null;
  choices: JsonObject[];
}

/** Calls read in batches: their recorded responses (logprobs) are most of their bytes. */
const BATCH = 200;

async function loadCalls(calls: JudgedCalls, ids: string[]): Promise<Map<string, RecordedCall>> {
  const loaded = new Map<string, RecordedCall>();
  for (let i = 0; i < ids.length; i += BATCH) {
    const rows = await getDatabase().sql.query<{ id: string; messages: unknown; tools: unknown; output: unknown } & TemplateInputs>(
      `SELECT id, inputs->'messages' AS messages, inputs->'tools' AS tools, ${TEMPLATE_INPUT_COLUMNS}, output
         FROM "Call" WHERE id = ANY($1::uuid[]) AND "projectId" = $2::uuid`,
      [ids.slice(i, i + BATCH), calls.projectId],
    );
    for (const row of rows) {
      const output = isJsonObject(row.output) ? (fromStoredOutput(row.output) as JsonObject) : null;
      const choices = Array.isArray(output?.choices) ? (output.choices as unknown[]).filter(isJsonObject) : [];
      loaded.set(row.id, {
        id: row.id,
        messages: Array.isArray(row.messages) ? row.messages.filter(isJsonObject) : [],
        tools: Array.isArray(row.tools) && row.tools.length ? row.tools : null,
        templateKwargs: recordedTemplateKwargs(row),
        choices: choices.sort((a, b) => Number(a.index ?? 0) - Number(b.index ?? 0)),
      });
    }
  }
  return loaded;
}

const contentText = (content: unknown) =>
  typeof content === "string" ? content : Array.isArray(content) ? content.map((p) => (isJsonObject(p) && typeof p.text === "string" ? p.text : "")).join("") : "";

function promptPreview(messages: JsonObject[]): string {
  const text = contentText([...messages].reverse().find((m) => m.role === "user")?.content ?? messages.at(-1)?.content);
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}

/** The trajectory of one recorded choice: the request's messages, then the Choice as recorded
 *  (what a client sends back); null if it is not one the RL job reads. */
function trajectoryOf(call: RecordedCall, choice: number, reward: number): Trajectory | null {
  const { index, message, finish_reason, logprobs } = call.choices[choice];
  const parsed = trajectorySchema.safeParse({
    messages_and_choices: [...call.messages, { index, message, finish_reason, logprobs }],
    reward,
    tools: call.tools,
    chat_template_kwargs: call.templateKwargs,
  });
  return parsed.success ? parsed.data : null;
}

interface Scored {
  call: RecordedCall;
  choice: number;
  reward: number;
  trajectory: Trajectory;
}

interface Building {
  kind: GroupPreview["kind"];
  members: Scored[];
}

export interface BuiltRlGroups {
  preview: RlGroupsDto;
  groups: TrajectoryGroup[];
  source: JudgementSource;
}

export async function buildRlGroups(principal: Principal, body: RlGroupsBody): Promise<BuiltRlGroups> {
  const calls = await resolveJudgedCalls(principal, body);
  const spec = await requireSpec(calls.projectId, body.reward_spec, ["numeric", "boolean"], ["body", "reward_spec"]);
  const kind = valueKind(spec.type);
  const annotations = byCall(await loadAnnotations(calls, [spec.name]));
  const recorded = await loadCalls(calls, calls.callIds.filter((id) => annotations.has(id)));
  const leftOut = new LeftOutTally();

  /** The reward of some rows, or why there is none. */
  const reward = (rows: AnnotationRow[]): number | LeftOutReason => {
    const combined = combineValues(kind, rows.map((row) => row.value));
    if (!combined) return "not_annotated";
    if ("tie" in combined) return "tie";
    return typeof combined.value === "boolean" ? Number(combined.value) : (combined.value as number);
  };

  const building = new Map<string, Building>();
  const used = new Map<string, AnnotationRow[]>();
  for (const callId of calls.callIds) {
    const call = recorded.get(callId);
    const rows = annotations.get(callId) ?? [];
    if (!call) {
      leftOut.add("not_annotated", callId);
      continue;
    }
    if (call.choices.length === 0) {
      leftOut.add("no_reply", callId);
      continue;
    }
    if (call.choices.length === 1) {
      const own = rows.filter((row) => row.choice === 0);
      const scored = reward(own.length ? own : rows.filter((row) => row.choice === null));
      if (typeof scored !== "number") {
        leftOut.add(scored, callId);
        continue;
      }
      const trajectory = trajectoryOf(call, 0, scored);
      if (!trajectory) {
        leftOut.add("not_trainable", callId);
        continue;
      }
      const key = JSON.stringify([call.messages, call.tools, call.templateKwargs]);
      const group = building.get(key) ?? { kind: "prompt", members: [] };
      group.members.push({ call, choice: 0, reward: scored, trajectory });
      building.set(key, group);
      used.set(callId, rows);
      continue;
    }
    const perChoice = rows.filter((row) => row.choice !== null);
    if (perChoice.length === 0) {
      leftOut.add(rows.length ? "choices_not_scored" : "not_annotated", callId);
      continue;
    }
    const members = call.choices.flatMap((_, i) => {
      const scored = reward(perChoice.filter((row) => row.choice === i));
      const trajectory = typeof scored === "number" ? trajectoryOf(call, i, scored) : null;
      return trajectory ? [{ call, choice: i, reward: trajectory.reward, trajectory }] : [];
    });
    building.set(callId, { kind: "choices", members });
    used.set(callId, perChoice);
  }

  const groups: TrajectoryGroup[] = [];
  const previews: GroupPreview[] = [];
  const singles: GroupPreview[] = [];
  const feedback: AnnotationRow[] = [];
  for (const group of building.values()) {
    const rewards = group.members.map((m) => m.reward);
    const preview: GroupPreview = {
      kind: group.kind,
      prompt: promptPreview(group.members[0].call.messages),
      trajectories: group.members.map((m) => ({ call_id: m.call.id, choice_index: m.choice, reward: m.reward })),
      reward_mean: rewards.reduce((a, b) => a + b, 0) / rewards.length,
      reward_spread: Math.max(...rewards) - Math.min(...rewards),
    };
    if (group.members.length < 2) {
      singles.push(preview);
      for (const m of group.members) leftOut.add("single_trajectory", m.call.id);
      continue;
    }
    previews.push(preview);
    for (const id of new Set(group.members.map((m) => m.call.id))) feedback.push(...used.get(id)!);
    groups.push({ trajectories: group.members.map((m) => m.trajectory) });
  }

  const warnings: string[] = [];
  if (singles.length) {
    warnings.push(`${singles.length} group${singles.length === 1 ? "" : "s"} of one trajectory left out: a reward needs another in its group to compare with (ask for n ≥ 2 choices, or send the same prompt more than once).`);
  }
  const flat = previews.filter((p) => p.reward_spread === 0).length;
  if (flat) warnings.push(`${flat} group${flat === 1 ? " has" : "s have"} the same reward for every trajectory: ${flat === 1 ? "it teaches" : "they teach"} nothing (every advantage is 0).`);
  const trajectories = previews.reduce((n, p) => n + p.trajectories.length, 0);
  const counts = { matched: calls.callIds.length, groups: groups.length, trajectories, singles: singles.length };
  const source = judgementSource(calls, { kind: "rl_from_judgement", rewardSpec: spec.name, specs: [spec.name], feedback, counts, leftOut: leftOut.list() });
  return {
    preview: { matched: calls.callIds.length, groups: previews, singles, warnings, left_out: source.left_out, trajectories },
    groups,
    source,
  };
}
