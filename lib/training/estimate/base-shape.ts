import fs from "node:fs";
import { ggmlBlockLayout, ggmlTypeName } from "@/lib/engine/gguf/ggml-types";
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

const read = new Map<string, { mtimeMs: number; size: number; shape: BaseShape }>();

/** The base's shape; throws (without the path) when the trainer cannot read the file. */
export function readBaseShape(path: string): BaseShape {
  const stat = fs.statSync(path);
  const known = read.get(path);
  if (known?.mtimeMs === stat.mtimeMs && known.size === stat.size) return known.shape;
  const file = openGguf(path);
  try {
    const { config } = trainableLayout(file);
    const byType = new Map<number, number>();
    let parameters = 0;
    let weightBytes = 0;
    for (const t of file.tensors) {
      const count = t.dims.reduce((a, b) => a * b, 1);
      const layout = ggmlBlockLayout(t.ggmlType);
      parameters += count;
      weightBytes += layout ? (count / layout.blockSize) * layout.blockBytes : 4 * count;
      byType.set(t.ggmlType, (byType.get(t.ggmlType) ?? 0) + count);
    }
    const [mainType] = [...byType].sort((a, b) => b[1] - a[1])[0];
    const shape = { config, architecture: archOf(config), parameters, weightType: ggmlTypeName(mainType), weightBytes };
    read.set(path, { mtimeMs: stat.mtimeMs, size: stat.size, shape });
    return shape;
  } finally {
    file.close();
  }
}
