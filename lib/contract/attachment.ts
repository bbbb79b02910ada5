import fs from "node:fs";
import { Readable } from "node:stream";

// Responses that are files to save: the Content-Disposition naming them, and a file on disk streamed.

/** RFC 6266's `attachment` with the name in RFC 5987's UTF-8 form (any name, safely quoted). */
export const attachment = (filename: string): string => `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`;

/** The file's bytes, streamed from disk with its length; null when it does not exist (deleted
 *  between the caller's lookup and the open). */
export async function streamFile(absolutePath: string, headers: Record<string, string>): Promise<Response | null> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(absolutePath, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  const { size } = await handle.stat();
  const stream = fs.createReadStream("", { fd: handle });
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { headers: { ...headers, "content-length": String(size) } });
}
