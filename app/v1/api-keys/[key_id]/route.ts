// DELETE /v1/api-keys/{key_id} — revoke one of the caller's keys
import { revokeApiKey } from "@/lib/auth/api-keys";
import { revokeApiKeyOp } from "@/lib/auth/operations";
import { handle } from "@/lib/http/handle";

export const DELETE = handle(revokeApiKeyOp, ({ principal, params }) => revokeApiKey(principal, params.key_id));
