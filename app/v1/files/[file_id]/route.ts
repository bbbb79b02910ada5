// GET /v1/files/{file_id} — one file's metadata; DELETE — delete it and its bytes
import { deleteFile, getFile } from "@/lib/files/files";
import { deleteFileOp, getFileOp } from "@/lib/files/operations";
import { handle } from "@/lib/http/handle";

export const GET = handle(getFileOp, ({ principal, params }) => getFile(principal, params.file_id));

export const DELETE = handle(deleteFileOp, ({ principal, params }) => deleteFile(principal, params.file_id));
