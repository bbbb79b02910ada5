import { LARGE_BODY_LIMIT } from "@/lib/contract/body-limits";
import { defineOperation } from "@/lib/contract/operation";
import { createFileBody, deletedFileSchema, fileParams, filePage, fileSchema, listFilesQuery } from "@/lib/files/schemas";

// Files as OpenAI's SDKs use them: multipart upload, list, get, raw content, delete.

export const createFileOp = defineOperation({
  id: "createFile", method: "POST", path: "/v1/files", tag: "Files", auth: "bearer",
  bodyKind: "multipart", bodyLimit: LARGE_BODY_LIMIT,
  summary: "Upload a file (multipart: file, purpose, optional team) into a team the caller may use",
  body: createFileBody, response: fileSchema,
});

export const listFilesOp = defineOperation({
  id: "listFiles", method: "GET", path: "/v1/files", tag: "Files", auth: "bearer",
  summary: "The files of the teams the caller may use (cursor page, newest first by default)",
  query: listFilesQuery, response: filePage,
});

export const getFileOp = defineOperation({
  id: "getFile", method: "GET", path: "/v1/files/{file_id}", tag: "Files", auth: "bearer",
  summary: "One file's metadata",
  params: fileParams, response: fileSchema,
});

export const getFileContentOp = defineOperation({
  id: "getFileContent", method: "GET", path: "/v1/files/{file_id}/content", tag: "Files", auth: "bearer",
  summary: "A file's bytes (application/jsonl for .jsonl files, else application/octet-stream)",
  params: fileParams,
});

export const deleteFileOp = defineOperation({
  id: "deleteFile", method: "DELETE", path: "/v1/files/{file_id}", tag: "Files", auth: "bearer",
  summary: "Delete a file and its bytes (a second delete is 404, as OpenAI answers)",
  params: fileParams, response: deletedFileSchema,
});
