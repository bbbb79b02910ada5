import { AppError } from "@/lib/http/errors";

export const MiB = 1024 * 1024;
export const DEFAULT_BODY_LIMIT = 1 * MiB;
export const LARGE_BODY_LIMIT = 64 * MiB;

export function tooLarge(limit: number): AppError {
  return new AppError(
    "payload_too_large",
    `Request body exceeds this route's limit of ${limit / MiB} MiB.`,
  );
}

/** Reads the body as text, refusing (413) as soon as it passes `limit` bytes. */
export async function readBodyText(req: Request, limit: number): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
