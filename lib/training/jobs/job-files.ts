import fs from "node:fs";
import path from "node:path";
import { dataPaths } from "@/lib/config/paths";

// Where a job's checkpoint lands: checkpoints/<model id>/<job id>-a<attempt>.gguf, with its
// optimizer state beside it (.optim). A per-attempt name means a worker that lost its lease can
// clean up its own output without touching the file of the attempt that replaced it.

export function checkpointFileFor(modelId: string, jobId: string, attempt: number): string {
  return path.join(modelId, `${jobId}-a${attempt}.gguf`);
}

/** An uploaded adapter's checkpoint (POST .../checkpoints): checkpoints/<model id>/import-<id>.gguf. */
export function importedCheckpointFileFor(modelId: string, importId: string): string {
  return path.join(modelId, `import-${importId}.gguf`);
}

export const absoluteCheckpointPath = (file: string) => path.resolve(dataPaths().checkpoints, file);

export const optimizerStatePath = (ggufPath: string) => ggufPath.replace(/\.gguf$/, "") + ".optim";

/** Deletes a checkpoint's files (GGUF and optimizer state); missing files are fine. */
export function removeCheckpointFiles(file: string): void {
  const gguf = absoluteCheckpointPath(file);
  fs.rmSync(gguf, { force: true });
  fs.rmSync(optimizerStatePath(gguf), { force: true });
}
