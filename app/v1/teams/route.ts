// GET /v1/teams — the caller's teams; POST /v1/teams — create a team (instance admins)
import { createTeamOp, listTeamsOp } from "@/lib/auth/operations";
import { createTeam, listTeams } from "@/lib/auth/teams";
import { handle } from "@/lib/http/handle";

export const GET = handle(listTeamsOp, ({ principal }) => listTeams(principal));

export const POST = handle(createTeamOp, ({ principal, body }) => createTeam(principal, body.name));
