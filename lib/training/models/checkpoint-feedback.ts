import type { Principal } from "@/lib/auth/principal";
import { getDatabase } from "@/lib/db/client";
import { ANNOTATION_PREFIX, REACTION_TYPE } from "@/lib/feedback/kinds";
import { findModelForCaller } from "@/lib/training/models/find-model";
import type { CheckpointFeedback } from "./checkpoint-feedback-schema";

// GET /v1/preview/models/{model_id}/feedback-by-checkpoint: the calls each checkpoint of a trained
// model served (Call.modelId and checkpointStep, recorded when the call is served) and the feedback
// on them, aggregated per step in one SQL statement — only the per-step numbers reach JavaScript.
// Calls count in any project of the model's team (the inference name works from any of them); the
// feedback is each call's own rows (its project, `svc_ref` its call ref). Another team's model is a
// 404, an annotator's request a 403, as the other model routes.

interface Row {
  step: number;
  checkpoint_exists: boolean;
  calls: number;
  judged_calls: number;
  feedback: number;
  thumbs_up: number;
  thumbs_down: number;
  annotations: { spec: string; mean: number; count: number }[];
}

const SQL = `
WITH calls AS MATERIALIZED (
  SELECT c.id, c."projectId", coalesce(c."checkpointStep", 0) AS step, 'svc:///' || $3 || '/' || p.name || '/call/' || c.id::text AS ref
    FROM "Call" c JOIN "Project" p ON p.id = c."projectId"
   WHERE c."modelId" = $1::uuid AND p."teamId" = $2::uuid),
judged AS MATERIALIZED (
  SELECT calls.step, calls.id AS call_id, f."feedbackType" AS type, f.payload
    FROM calls JOIN "Feedback" f ON f."projectId" = calls."projectId" AND f."svcRef" = calls.ref),
served AS (SELECT step, count(*)::int AS calls FROM calls GROUP BY step),
said AS (
  SELECT step, count(DISTINCT call_id)::int AS judged_calls, count(*)::int AS feedback,
         (count(*) FILTER (WHERE type = $4 AND payload->>'detoned_alias' = ':thumbs_up:'))::int AS thumbs_up,
         (count(*) FILTER (WHERE type = $4 AND payload->>'detoned_alias' = ':thumbs_down:'))::int AS thumbs_down
    FROM judged GROUP BY step),
scored AS (
  SELECT step, substr(type, length($5) + 1) AS spec, avg((payload->>'value')::float8) AS mean, count(*)::int AS count
    FROM judged WHERE starts_with(type, $5) AND jsonb_typeof(payload->'value') = 'number' GROUP BY 1, 2),
steps AS (SELECT step FROM "Checkpoint" WHERE "modelId" = $1::uuid UNION SELECT step FROM served)
SELECT s.step,
       EXISTS (SELECT 1 FROM "Checkpoint" k WHERE k."modelId" = $1::uuid AND k.step = s.step) AS checkpoint_exists,
       coalesce(v.calls, 0) AS calls, coalesce(d.judged_calls, 0) AS judged_calls, coalesce(d.feedback, 0) AS feedback,
       coalesce(d.thumbs_up, 0) AS thumbs_up, coalesce(d.thumbs_down, 0) AS thumbs_down,
       coalesce((SELECT jsonb_agg(jsonb_build_object('spec', a.spec, 'mean', a.mean, 'count', a.count) ORDER BY a.spec COLLATE "C")
                   FROM scored a WHERE a.step = s.step), '[]'::jsonb) AS annotations
  FROM steps s LEFT JOIN served v ON v.step = s.step LEFT JOIN said d ON d.step = s.step
 ORDER BY s.step`;

export async function feedbackByCheckpoint(principal: Principal, modelId: string): Promise<CheckpointFeedback> {
  const model = await findModelForCaller(principal, modelId, "use");
  const team = model.project.team.name;
  const rows = await getDatabase().sql.query<Row>(SQL, [model.id, model.project.teamId, team, REACTION_TYPE, ANNOTATION_PREFIX]);
  const name = `${team}/${model.project.name}/${model.name}`;
  return {
    model_id: model.id,
    data: rows.map((row) => ({
      ...row,
      served_as: `${name}:step${row.step}`,
      thumbs_up_ratio: row.thumbs_up + row.thumbs_down === 0 ? null : row.thumbs_up / (row.thumbs_up + row.thumbs_down),
    })),
  };
}
