// ggml's tensor types (ggml.h `enum ggml_type`): the codes a GGUF stores, the names llama.cpp prints
// (so a refusal says "Q4_K" rather than 12), and each type's block layout (ggml.c `type_traits`:
// `blck_size` values stored in `type_size` bytes). The layout is all a reader needs to find, copy or
// slice any tensor's bytes; decoding them is weight-types.ts's, for the types it supports.

export const GGML_TYPE = {
  F32: 0, F16: 1, Q4_0: 2, Q4_1: 3, Q5_0: 6, Q5_1: 7, Q8_0: 8, Q8_1: 9,
  Q2_K: 10, Q3_K: 11, Q4_K: 12, Q5_K: 13, Q6_K: 14, Q8_K: 15,
  IQ2_XXS: 16, IQ2_XS: 17, IQ3_XXS: 18, IQ1_S: 19, IQ4_NL: 20, IQ3_S: 21, IQ2_S: 22, IQ4_XS: 23,
  I8: 24, I16: 25, I32: 26, I64: 27, F64: 28, IQ1_M: 29, BF16: 30, TQ1_0: 34, TQ2_0: 35,
  MXFP4: 39, NVFP4: 40, Q1_0: 41, Q2_0: 42,
} as const;

export type GgmlTypeName = keyof typeof GGML_TYPE;

export interface BlockLayout {
  /** Values per block (ggml's blck_size). */
  blockSize: number;
  /** Bytes per block (ggml's type_size). */
  blockBytes: number;
}

// [blck_size, type_size] as ggml-common.h's block structs make them; checked against the shipped
// libggml-base by weight-types.test.ts.
const LAYOUTS: Record<GgmlTypeName, [number, number]> = {
  F32: [1, 4], F16: [1, 2], Q4_0: [32, 18], Q4_1: [32, 20], Q5_0: [32, 22], Q5_1: [32, 24], Q8_0: [32, 34], Q8_1: [32, 36],
  Q2_K: [256, 84], Q3_K: [256, 110], Q4_K: [256, 144], Q5_K: [256, 176], Q6_K: [256, 210], Q8_K: [256, 292],
  IQ2_XXS: [256, 66], IQ2_XS: [256, 74], IQ3_XXS: [256, 98], IQ1_S: [256, 50], IQ4_NL: [32, 18], IQ3_S: [256, 110],
  IQ2_S: [256, 82], IQ4_XS: [256, 136], I8: [1, 1], I16: [1, 2], I32: [1, 4], I64: [1, 8], F64: [1, 8], IQ1_M: [256, 56],
  BF16: [1, 2], TQ1_0: [256, 54], TQ2_0: [256, 66], MXFP4: [32, 17], NVFP4: [64, 36], Q1_0: [128, 18], Q2_0: [64, 18],
};

const NAME_BY_CODE = new Map(Object.entries(GGML_TYPE).map(([name, code]) => [code as number, name as GgmlTypeName]));

export const ggmlTypeName = (code: number): string => NAME_BY_CODE.get(code) ?? `ggml type ${code}`;

/** The block layout of a type a GGUF may hold, or undefined for a code ggml does not define. */
export function ggmlBlockLayout(code: number): BlockLayout | undefined {
  const name = NAME_BY_CODE.get(code);
  if (name === undefined) return undefined;
  const [blockSize, blockBytes] = LAYOUTS[name];
  return { blockSize, blockBytes };
}

/** Bytes of one row of `rowLength` values of any ggml type; the row must be a whole number of blocks. */
export function ggmlRowBytes(code: number, rowLength: number): number {
  const layout = ggmlBlockLayout(code);
  if (!layout) throw new Error(`unknown ggml type ${code}`);
  if (rowLength % layout.blockSize !== 0) {
    throw new Error(`a ${ggmlTypeName(code)} row of ${rowLength} values is not a whole number of ${layout.blockSize}-value blocks`);
  }
  return (rowLength / layout.blockSize) * layout.blockBytes;
}
