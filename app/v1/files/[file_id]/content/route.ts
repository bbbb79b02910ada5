// GET /v1/files/{file_id}/content — the file's bytes
import { getFileContent } from "@/lib/files/files";
import { getFileContentOp } from "@/lib/files/operations";
import { handle } from "@/lib/http/handle";

export const GET = handle(getFileContentOp, ({ principal, params }) => getFileContent(principal, params.file_id));
