// POST /v1/workers/leases/{token}/uploads — declare an upload (a checkpoint or a state)
import { handle } from "@/lib/http/handle";
import { createUploadOp } from "@/lib/workers/operations";
import { findOwnedLease } from "@/lib/workers/owned-lease";
import { createUpload } from "@/lib/workers/uploads";

export const POST = handle(createUploadOp, async ({ principal, params, body }) => createUpload(await findOwnedLease(principal, params.token), body));
