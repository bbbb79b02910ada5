// GET /v1/teams/{team}/members — list members; POST — add (or create and add) a member
import { addMemberOp, listMembersOp } from "@/lib/auth/operations";
import { addMember, listMembers } from "@/lib/auth/teams";
import { handle } from "@/lib/http/handle";

export const GET = handle(listMembersOp, ({ principal, params }) => listMembers(principal, params.team));

export const POST = handle(addMemberOp, ({ principal, params, body }) => addMember(principal, params.team, body));
