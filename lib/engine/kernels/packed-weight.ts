// A frozen weight kept in its file encoding (F32, F16, BF16 or a quantized type), so a base model
// costs its GGUF's bytes in memory instead of four bytes a value. The matmuls that read it
// (Kernels.matmulXWt, matmulDyW) decode it a block at a time; gatherRows decodes single rows (an
// embedding lookup).
import { GGML_TYPE, ggmlRowBytes, ggmlTypeName } from "../gguf/ggml-types";
import { halfValueTable } from "../gguf/half-float";
import { dequantizeRows, weightTypeLayout } from "../gguf/weight-types";

/** A ggml_type code (GGML_TYPE in gguf/ggml-types.ts). */
export type GgmlType = number;

/** W[rows, cols] in GGUF layout: rows = output features, cols = input features (GGUF dims [cols, rows]);
 *  `data` holds rows·rowBytes bytes, row after row, as the file stores them. */
export interface PackedWeight {
  readonly type: GgmlType;
  readonly rows: number;
  readonly cols: number;
  readonly data: Uint8Array;
}

/** Bytes of one row of W. */
export const packedRowBytes = (w: PackedWeight): number => ggmlRowBytes(w.type, w.cols);

/** A weight over `data` (not copied); refuses types Anneal cannot decode and sizes that do not add up. */
export function packedWeight(type: GgmlType, rows: number, cols: number, data: Uint8Array): PackedWeight {
  weightTypeLayout(type); // throws, naming the type, for one Anneal does not decode
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 0 || cols < 0) throw new Error(`bad weight shape ${rows}×${cols}`);
  const need = rows * ggmlRowBytes(type, cols);
  if (data.length !== need) throw new Error(`a ${ggmlTypeName(type)} weight of ${rows}×${cols} is ${need} bytes, not ${data.length}`);
  return { type, rows, cols, data };
}

/** A weight from a GGUF tensor's dims ([cols, rows]) and bytes. */
export function packedWeightFromTensor(tensor: { name: string; dims: number[]; ggmlType: number }, data: Uint8Array): PackedWeight {
  if (tensor.dims.length !== 2) throw new Error(`${tensor.name} has ${tensor.dims.length} dims, not 2`);
  return packedWeight(tensor.ggmlType, tensor.dims[1], tensor.dims[0], data);
}

/** An F32 weight over `values` (shared, not copied). */
export const packedWeightFromF32 = (values: Float32Array, rows: number, cols: number): PackedWeight =>
  packedWeight(GGML_TYPE.F32, rows, cols, new Uint8Array(values.buffer, values.byteOffset, rows * cols * 4));

/** The F16 min of every block of a Q4_1 or Q5_1 weight: out[rows, cols/32] (row-major). */
export function blockMins(w: PackedWeight, out = new Float32Array(w.rows * (w.cols / 32))): Float32Array {
  const { blockBytes } = weightTypeLayout(w.type);
  if (w.type !== GGML_TYPE.Q4_1 && w.type !== GGML_TYPE.Q5_1) throw new Error(`${ggmlTypeName(w.type)} blocks have no min`);
  const half = halfValueTable();
  for (let b = 0, p = 2; b < out.length; b++, p += blockBytes) out[b] = half[w.data[p] | (w.data[p + 1] << 8)];
  return out;
}

/** out[i, :] = row ids[i] of W, decoded to float32 as ggml decodes it (Kernels.gatherRows in TypeScript). */
export function gatherRows(out: Float32Array, w: PackedWeight, ids: ArrayLike<number>): void {
  const rowBytes = packedRowBytes(w);
  if (out.length < ids.length * w.cols) throw new Error(`gatherRows: ${ids.length} rows of ${w.cols} do not fit in ${out.length}`);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (!Number.isInteger(id) || id < 0 || id >= w.rows) throw new Error(`gatherRows: row ${id} is outside 0..${w.rows - 1}`);
    dequantizeRows(w.type, w.data.subarray(id * rowBytes, (id + 1) * rowBytes), out, i * w.cols);
  }
}
