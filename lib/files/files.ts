import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Principal } from "@/lib/auth/principal";
import { defaultTeamName } from "@/lib/auth/projects";
import { requireInReach, resolveTeamAccess, teamIdsAllowing } from "@/lib/auth/team-access";
import { dataPaths } from "@/lib/config/paths";
import { getDb } from "@/lib/db/client";
import { attachment, streamFile } from "@/lib/contract/attachment";
import { uuid7 } from "@/lib/db/uuid7";
import { AppError, notFound } from "@/lib/contract/errors";
import { CURSOR_SELECT, isUuid, pageByCreation } from "@/lib/contract/pagination";
import type { CreateFileBody, FileDto, ListFilesQuery } from "@/lib/files/schemas";

// Uploaded files belong to a team; their bytes live at $ANNEAL_DATA_DIR/files/<id>, their
// metadata in the File table. Another team's file is a 404; roles without "use" (annotators) 403.

type FileRow = { id: string; filename: string; purpose: string; bytes: number; createdAt: Date; team: { name: string } };
const TEAM_NAME = { team: { select: { name: true } } } as const;

function toFileDto(row: FileRow): FileDto {
  return {
    id: row.id,
    object: "file",
    bytes: row.bytes,
    filename: row.filename,
    purpose: row.purpose,
    created_at: Math.floor(row.createdAt.getTime() / 1000),
    status: "processed",
    team: row.team.name,
  };
}

const ANNEAL_FILE_REF = /^anneal-file:\/\/\/([0-9a-f-]{36})$/i;

/** A file id from `<uuid>` or `anneal-file:///<uuid>` (how SFT jobs name their training data);
 *  null for anything else. */
export function parseFileRef(ref: string): string | null {
  const id = ref.match(ANNEAL_FILE_REF)?.[1] ?? ref;
  return isUuid(id) ? id.toLowerCase() : null;
}

export interface CallerFile {
  id: string;
  teamId: string;
  filename: string;
  purpose: string;
  bytes: number;
  absolutePath: string;
}

/** A file (by id or `anneal-file:///<id>`) in a team where the caller may "use" things: unknown
 *  and other teams' files are a 404 that does not reveal they exist; an annotator's 403. */
export async function findFileForCaller(principal: Principal, fileId: string): Promise<CallerFile> {
  const id = parseFileRef(fileId);
  const found = id ? await getDb().file.findUnique({ where: { id } }) : null;
  const row = await requireInReach(principal, found, (r) => r.teamId, "use", () => notFound(`File '${fileId}' not found.`));
  const { teamId, filename, purpose, bytes } = row;
  return { id: row.id, teamId, filename, purpose, bytes, absolutePath: path.resolve(dataPaths().files, row.path) };
}

/** A file's bytes wholly in memory (training data); a file deleted meanwhile is a 404. */
export async function readFileForCaller(principal: Principal, fileId: string): Promise<Buffer> {
  const file = await findFileForCaller(principal, fileId);
  try {
    return await fs.promises.readFile(file.absolutePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw notFound(`File '${fileId}' not found.`);
    throw error;
  }
}

/** POST /v1/files: the bytes are written under a temporary name and renamed into place before the
 *  row is created, so a failure leaves neither a row without bytes nor a half-written file. */
export async function createFile(principal: Principal, body: CreateFileBody): Promise<FileDto> {
  const { team } = await resolveTeamAccess(principal, body.team ?? (await defaultTeamName(principal)), "use");
  const dir = dataPaths().files;
  await fs.promises.mkdir(dir, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    throw storageUnavailable(error);
  });
  const id = uuid7();
  const finalPath = path.join(dir, id);
  const tempPath = path.join(dir, `.${id}.upload`);
  const removeBytes = async () => {
    await fs.promises.rm(tempPath, { force: true });
    await fs.promises.rm(finalPath, { force: true });
  };
  try {
    await pipeline(Readable.fromWeb(body.file.stream() as never), fs.createWriteStream(tempPath, { flags: "wx" }));
    await fs.promises.rename(tempPath, finalPath);
  } catch (error) {
    await removeBytes();
    throw storageUnavailable(error as NodeJS.ErrnoException);
  }
  try {
    const row = await getDb().file.create({
      data: { id, teamId: team.id, createdById: principal.user.id, filename: body.file.name, purpose: body.purpose, bytes: body.file.size, path: id },
      include: TEAM_NAME,
    });
    return toFileDto(row);
  } catch (error) {
    await removeBytes(); // no bytes without their row
    throw error;
  }
}

/** The data directory refused a write (full disk, permissions...): the operator's problem, said so. */
function storageUnavailable(error: NodeJS.ErrnoException): AppError {
  return new AppError("unavailable", `The upload could not be stored in the data directory (${error.code ?? error.message}); ask the operator to check its disk space and permissions.`);
}

/** The teams a listing covers: a named team the caller is not in is a 404, one where they cannot
 *  use things a 403; unfiltered, every team where they can. */
async function listingTeamIds(principal: Principal, team: string | undefined): Promise<string[]> {
  if (team) return [(await resolveTeamAccess(principal, team, "use")).team.id];
  return teamIdsAllowing(principal, "use");
}

/** GET /v1/files: a cursor page, newest first by default; `purpose` and `team` filter. */
export async function listFiles(principal: Principal, query: ListFilesQuery) {
  const scope = { teamId: { in: await listingTeamIds(principal, query.team) }, ...(query.purpose ? { purpose: query.purpose } : {}) };
  const db = getDb();
  return pageByCreation({
    query,
    findCursor: (id) => db.file.findFirst({ where: { id, ...scope }, select: CURSOR_SELECT }),
    findRows: ({ where, orderBy, take }) => db.file.findMany({ where: { AND: [scope, where] }, orderBy, take, include: TEAM_NAME }),
    toDto: toFileDto,
  });
}

/** GET /v1/files/{id} */
export async function getFile(principal: Principal, fileId: string): Promise<FileDto> {
  const { id } = await findFileForCaller(principal, fileId);
  const row = await getDb().file.findUnique({ where: { id }, include: TEAM_NAME });
  if (!row) throw notFound(`File '${fileId}' not found.`);
  return toFileDto(row);
}

const contentType = (filename: string) =>
  filename.toLowerCase().endsWith(".jsonl") ? "application/jsonl" : "application/octet-stream";

/** GET /v1/files/{id}/content: the bytes, streamed from disk. */
export async function getFileContent(principal: Principal, fileId: string): Promise<Response> {
  const file = await findFileForCaller(principal, fileId);
  const response = await streamFile(file.absolutePath, { "content-type": contentType(file.filename), "content-disposition": attachment(file.filename) });
  if (!response) throw notFound(`File '${fileId}' not found.`);
  return response;
}

/** DELETE /v1/files/{id}: the row first (so the file is gone for every reader at once), then the
 *  bytes. A second delete is a 404, as OpenAI answers it. */
export async function deleteFile(principal: Principal, fileId: string) {
  const file = await findFileForCaller(principal, fileId);
  const { count } = await getDb().file.deleteMany({ where: { id: file.id } });
  if (count === 0) throw notFound(`File '${fileId}' not found.`);
  await fs.promises.rm(file.absolutePath, { force: true });
  return { id: file.id, object: "file" as const, deleted: true as const };
}
