// Test fixture: a GGUF rewritten with its metadata and tensors changed, e.g. to stand for a file in
// another model's layout, from one Anneal wrote.

import { openGguf } from "../gguf/read-gguf";
import type { GgufMetadata } from "../gguf/values";
import { writeGguf, type GgufTensorToWrite } from "../gguf/write-gguf";

export type GgufChange = (metadata: GgufMetadata, tensors: GgufTensorToWrite[]) => GgufTensorToWrite[] | void;

/** Writes `target` as `source` (an all-F32 file) after `change`, which may edit the metadata in place
 *  and return new tensors. */
export function rewriteGguf(source: string, target: string, change: GgufChange): void {
  const file = openGguf(source);
  const metadata = { ...file.metadata };
  let tensors: GgufTensorToWrite[];
  try {
    tensors = file.tensors.map((t) => ({ name: t.name, dims: t.dims, data: file.readTensor(t.name) }));
  } finally {
    file.close();
  }
  writeGguf(target, metadata, change(metadata, tensors) ?? tensors);
}
