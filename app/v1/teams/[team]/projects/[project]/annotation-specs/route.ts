// GET, POST /v1/teams/{team}/projects/{project}/annotation-specs — list and create annotation specs
import { createAnnotationSpec, listAnnotationSpecs } from "@/lib/feedback/annotation-specs";
import { createAnnotationSpecOp, listAnnotationSpecsOp } from "@/lib/feedback/operations";
import { handle } from "@/lib/http/handle";

export const GET = handle(listAnnotationSpecsOp, ({ principal, params, query }) => listAnnotationSpecs(principal, `${params.team}/${params.project}`, query));
export const POST = handle(createAnnotationSpecOp, ({ principal, params, body }) => createAnnotationSpec(principal, `${params.team}/${params.project}`, body));
