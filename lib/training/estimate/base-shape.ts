import { readPerFileVersion, type FileVersionCache } from "@/lib/engine/gguf/file-version-cache";
import { ggufSummary } from "@/lib/engine/gguf/gguf-summary";
import { trainableLayout } from "@/lib/engine/gguf/llama-gguf";
import { openGguf } from "@/lib/engine/gguf/read-gguf";
import { archOf, type LlamaConfig } from "@/lib/engine/model/config";

// What an estimate needs of a trainable base, read from its GGUF header once per version of the
// file: its shapes, parameters, the type its matrices are stored in and the bytes they take.

export interface BaseShape {
  config: LlamaConfig;
  architecture: string;
  parameters: number;
  /** The type holding most of the parameters, e.g. "Q8_0". */
  weightType: string;
  /** The tensors' bytes as stored. */
  weightBytes: number;
}

const shapes: FileVersionCache<BaseShape> = new Map();

/** The base's shape; throws (without the path) when the trainer cannot read the file. */
export function readBaseShape(path: string): BaseShape {
  return readPerFileVersion(shapes, path, () => {
    const file = openGguf(path);
    try {
      const { config } = trainableLayout(file);
      const { parameters, mainType, weightBytes } = ggufSummary(path);
      return { config, architecture: archOf(config), parameters, weightType: mainType, weightBytes };
    } finally {
      file.close();
    }
  });
}
