import { AppError, invalid } from "@/lib/contract/errors";
import { tooLarge } from "@/lib/http/body";

// multipart/form-data bodies (file uploads). The body is counted while it streams into the form
// parser, so an oversize upload is refused (413) as soon as it passes the limit and never more than
// the limit is held in memory; a declared Content-Length over the limit is refused before reading.

export type FormFields = Record<string, FormDataEntryValue | FormDataEntryValue[]>;

function limitedStream(body: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  let size = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > limit) controller.error(tooLarge(limit));
        else controller.enqueue(chunk);
      },
    }),
  );
}

/** The form's fields: file parts as File, others as strings; a repeated field becomes an array. */
export async function readMultipartBody(req: Request, limit: number): Promise<FormFields> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const contentType = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw invalid(["body"], "Expected a multipart/form-data body (with a boundary).", "value_error");
  }
  let form: FormData;
  try {
    const limited = req.body ? limitedStream(req.body, limit) : null;
    form = await new Request(req.url, { method: "POST", headers: { "content-type": contentType }, body: limited, duplex: "half" } as RequestInit).formData();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw invalid(["body"], `Malformed multipart/form-data body: ${(error as Error).message}`, "value_error");
  }
  const fields: FormFields = {};
  for (const key of new Set(form.keys())) {
    const values = form.getAll(key);
    fields[key] = values.length === 1 ? values[0] : values;
  }
  return fields;
}
