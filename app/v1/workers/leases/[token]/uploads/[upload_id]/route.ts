// PUT /v1/workers/leases/{token}/uploads/{upload_id} — one chunk (Content-Range); GET — the prefix held
import { handle } from "@/lib/http/handle";
import { getUploadOp, putChunkOp } from "@/lib/workers/operations";
import { findOwnedLease } from "@/lib/workers/owned-lease";
import { putChunk, uploadReceived } from "@/lib/workers/uploads";

export const PUT = handle(putChunkOp, async ({ req, principal, params, body }) =>
  putChunk(await findOwnedLease(principal, params.token), params.upload_id, req.headers.get("content-range"), body),
);

export const GET = handle(getUploadOp, async ({ principal, params }) => uploadReceived(await findOwnedLease(principal, params.token), params.upload_id));
