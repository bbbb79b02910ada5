// GET /v1/files — the caller's teams' files (cursor page); POST — upload one (multipart: file, purpose, team?)
import { createFile, listFiles } from "@/lib/files/files";
import { createFileOp, listFilesOp } from "@/lib/files/operations";
import { handle } from "@/lib/http/handle";

export const GET = handle(listFilesOp, ({ principal, query }) => listFiles(principal, query));

export const POST = handle(createFileOp, ({ principal, body }) => createFile(principal, body));
