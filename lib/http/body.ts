import { MiB } from "@/lib/contract/body-limits";
import { AppError, invalid } from "@/lib/contract/errors";


export function tooLarge(limit: number): AppError {
  return new AppError(
    "payload_too_large",
    `Request body exceeds this route's limit of ${limit / MiB} MiB.`,
  );
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** Reads the body's bytes, refusing (413) as soon as it passes `limit` bytes. */
export async function readBodyBytes(req: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!req.body) return new Uint8Array(0);
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
  return Buffer.concat(chunks);
}

/** Reads the body as UTF-8 text, refusing (413) as soon as it passes `limit` bytes; bytes that are
 *  not UTF-8 are a 422 rather than silently replaced by U+FFFD. */
export async function readBodyText(req: Request, limit: number): Promise<string> {
  const bytes = await readBodyBytes(req, limit);
  try {
    return UTF8.decode(bytes);
  } catch {
    throw invalid(["body"], "The body is not valid UTF-8.", "json_invalid");
  }
}
