// PATCH /v1/teams/{team}/members/{username} — change a role; DELETE — remove the member
import { removeMemberOp, updateMemberOp } from "@/lib/auth/operations";
import { removeMember, updateMemberRole } from "@/lib/auth/teams";
import { handle } from "@/lib/http/handle";

export const PATCH = handle(updateMemberOp, ({ principal, params, body }) =>
  updateMemberRole(principal, params.team, params.username, body.role),
);

export const DELETE = handle(removeMemberOp, ({ principal, params }) =>
  removeMember(principal, params.team, params.username),
);
