// GET /v1/me — the caller: user, teams with roles, default project
import { describeCaller } from "@/lib/auth/me";
import { getMe } from "@/lib/auth/operations";
import { handle } from "@/lib/http/handle";

export const GET = handle(getMe, ({ principal }) => describeCaller(principal));
