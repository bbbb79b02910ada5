// A GGUF whose tensors are made one at a time, for files larger than memory should hold (a 0.5B model
// as F32 is 2 GB). writeGguf takes every tensor's bytes at once, so it lays the file out with each
// tensor as zeros (views of one zero buffer, which costs no memory per tensor), and then each tensor is
// made and written at its offset. The price is writing the data twice; peak memory is the largest tensor.

import fs from "node:fs";
import type { GgufMetadata } from "../gguf/values";
import { alignUp, GGUF_DEFAULT_ALIGNMENT, writeGguf } from "../gguf/write-gguf";

export interface LazyTensor {
  name: string;
  /** GGUF dims, dims[0] contiguous. */
  dims: number[];
  ggmlType: number;
  byteLength: number;
  /** The tensor's bytes, made when it is written. */
  bytes(): Uint8Array;
}

export function writeGgufLazily(path: string, metadata: GgufMetadata, tensors: LazyTensor[]): void {
  if (metadata["general.alignment"]) throw new Error("writeGgufLazily: only the default alignment is supported");
  const zeros = new Uint8Array(Math.max(0, ...tensors.map((t) => t.byteLength)));
  writeGguf(
    path,
    metadata,
    tensors.map((t) => ({ name: t.name, dims: t.dims, ggmlType: t.ggmlType, bytes: zeros.subarray(0, t.byteLength) })),
  );
  // The data section ends the file, each tensor padded to the alignment: so it starts this far back.
  const padded = tensors.map((t) => alignUp(t.byteLength, GGUF_DEFAULT_ALIGNMENT));
  let offset = fs.statSync(path).size - padded.reduce((a, b) => a + b, 0);
  const fd = fs.openSync(path, "r+");
  try {
    tensors.forEach((t, i) => {
      const bytes = t.bytes();
      if (bytes.byteLength !== t.byteLength) throw new Error(`writeGgufLazily: ${t.name} has ${bytes.byteLength} bytes, ${t.byteLength} announced`);
      fs.writeSync(fd, bytes, 0, bytes.byteLength, offset);
      offset += padded[i];
    });
  } finally {
    fs.closeSync(fd);
  }
}
