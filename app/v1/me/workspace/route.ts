// GET /v1/me/workspace — the console's selected team and project; PUT — select them
import { getWorkspaceOp, setWorkspaceOp } from "@/lib/auth/operations";
import { getWorkspace, setWorkspace } from "@/lib/auth/workspace";
import { handle } from "@/lib/http/handle";

export const GET = handle(getWorkspaceOp, ({ principal }) => getWorkspace(principal));

export const PUT = handle(setWorkspaceOp, ({ principal, body }) => setWorkspace(principal, body));
