// GET /v1/api-keys — the caller's keys; POST /v1/api-keys — create a key (secret shown once)
import { createApiKey, listApiKeys } from "@/lib/auth/api-keys";
import { createApiKeyOp, listApiKeysOp } from "@/lib/auth/operations";
import { handle } from "@/lib/http/handle";

export const GET = handle(listApiKeysOp, ({ principal, query }) => listApiKeys(principal, query));

export const POST = handle(createApiKeyOp, ({ principal, body }) => createApiKey(principal, body));
