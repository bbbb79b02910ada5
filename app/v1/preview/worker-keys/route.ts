// POST /v1/preview/worker-keys — create a worker key; GET — list them (instance admins)
import { handle } from "@/lib/http/handle";
import { createWorkerKeyOp, listWorkerKeysOp } from "@/lib/workers/operations";
import { createWorkerKey, listWorkerKeys } from "@/lib/workers/worker-keys";

export const POST = handle(createWorkerKeyOp, ({ principal, body }) => createWorkerKey(principal, body));

export const GET = handle(listWorkerKeysOp, () => listWorkerKeys());
