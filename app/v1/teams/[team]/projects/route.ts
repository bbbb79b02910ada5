// GET /v1/teams/{team}/projects — a team's projects
import { listProjectsOp } from "@/lib/auth/operations";
import { listProjects } from "@/lib/auth/teams";
import { handle } from "@/lib/http/handle";

export const GET = handle(listProjectsOp, ({ principal, params }) => listProjects(principal, params.team));
