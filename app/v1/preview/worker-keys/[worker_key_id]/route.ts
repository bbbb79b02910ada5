// DELETE /v1/preview/worker-keys/{id} — revoke a worker key (instance admins)
import { handle } from "@/lib/http/handle";
import { revokeWorkerKeyOp } from "@/lib/workers/operations";
import { revokeWorkerKey } from "@/lib/workers/worker-keys";

export const DELETE = handle(revokeWorkerKeyOp, ({ params }) => revokeWorkerKey(params.worker_key_id));
