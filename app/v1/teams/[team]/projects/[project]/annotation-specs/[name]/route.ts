// GET, PUT, DELETE /v1/teams/{team}/projects/{project}/annotation-specs/{name} — one annotation spec
import { deleteAnnotationSpec, getAnnotationSpec, updateAnnotationSpec } from "@/lib/feedback/annotation-specs";
import { deleteAnnotationSpecOp, getAnnotationSpecOp, updateAnnotationSpecOp } from "@/lib/feedback/operations";
import { handle } from "@/lib/http/handle";

const projectOf = (params: { team: string; project: string }) => `${params.team}/${params.project}`;

export const GET = handle(getAnnotationSpecOp, ({ principal, params }) => getAnnotationSpec(principal, projectOf(params), params.name));
export const PUT = handle(updateAnnotationSpecOp, ({ principal, params, body }) => updateAnnotationSpec(principal, projectOf(params), params.name, body));
export const DELETE = handle(deleteAnnotationSpecOp, ({ principal, params }) => deleteAnnotationSpec(principal, projectOf(params), params.name));
