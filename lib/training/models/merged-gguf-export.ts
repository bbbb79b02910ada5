import { AppError } from "@/lib/contract/errors";
import { mergeLoraIntoGguf, type MergedGguf } from "@/lib/engine/gguf/merge-lora";
import { attachment } from "@/lib/contract/attachment";
import { log } from "@/lib/log";

// format=merged-gguf: the base with a LoRA checkpoint merged (lib/engine/gguf/merge-lora.ts), made as
// it is streamed. Making one costs a CPU for the whole download (the 0.5B base: ~1 GB of F16, every
// weight decoded, merged and encoded), so a process makes one at a time: a second request while one
// streams is a 429 with Retry-After. The slot is given back when the stream ends, fails or is
// cancelled (the client went away); it lives on globalThis because `npm start` loads lib/ twice.

/** What a client is asked to wait: about one export of a 0.5B base. */
export const MERGED_EXPORT_RETRY_AFTER_S = 60;

const slotKey = Symbol.for("anneal.mergedGgufExport");
type Holder = { [slotKey]?: { busy: boolean } };
const slot = ((globalThis as Holder)[slotKey] ??= { busy: false });

export interface MergedGgufExport {
  /** The base model's name and GGUF file. */
  baseName: string;
  basePath: string;
  /** The checkpoint's GGUF adapter. */
  adapterPath: string;
  /** general.name of the merged file. */
  name: string;
  filename: string;
}

/** The merged file as a response whose Content-Length is known before the first byte, or a 429 while
 *  another export streams. */
export function mergedGgufResponse(request: MergedGgufExport): Response {
  if (slot.busy) {
    throw new AppError(
      "rate_limited",
      "Another merged GGUF is being made on this server (one at a time); retry later, or download format=gguf-lora or format=peft, which are ready at once.",
      { "Retry-After": String(MERGED_EXPORT_RETRY_AFTER_S) },
    );
  }
  slot.busy = true;
  let merged: MergedGguf;
  try {
    merged = mergeLoraIntoGguf({ basePath: request.basePath, adapterPath: request.adapterPath, name: request.name });
  } catch (error) {
    slot.busy = false;
    // The merge's reasons name tensors and architectures, never a path.
    throw new AppError("conflict", `This checkpoint cannot be merged into the base model '${request.baseName}' as it is configured now: ${(error as Error).message}.`);
  }
  const chunks = merged.chunks();
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    merged.close();
    slot.busy = false;
  };
  // pull runs only when the reader wants more, so a slow client slows the merge (backpressure).
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      try {
        const next = chunks.next();
        if (next.done) {
          finish();
          controller.close();
        } else controller.enqueue(next.value);
      } catch (error) {
        finish();
        log.error("merged GGUF export failed while streaming", { base: request.basePath, adapter: request.adapterPath, error });
        controller.error(new Error("the merged GGUF could not be made; the server log says why"));
      }
    },
    cancel() {
      chunks.return(undefined);
      finish();
    },
  });
  return new Response(body, {
    headers: { "content-type": "application/octet-stream", "content-length": String(merged.byteLength), "content-disposition": attachment(request.filename) },
  });
}
