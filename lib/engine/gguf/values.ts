// GGUF metadata values: a tagged union that keeps each value's on-disk type, so a file read and
// written back is byte-identical, and constructors that make metadata literals read like the spec.

export type GgufNumberType = "u8" | "i8" | "u16" | "i16" | "u32" | "i32" | "f32" | "f64";
export type GgufBigIntType = "u64" | "i64";
export type GgufScalarType = GgufNumberType | GgufBigIntType | "bool" | "str";

export type GgufScalar =
  | { type: GgufNumberType; value: number }
  | { type: GgufBigIntType; value: bigint }
  | { type: "bool"; value: boolean }
  | { type: "str"; value: string };

export type GgufArray =
  | { type: "array"; itemType: GgufNumberType; value: number[] }
  | { type: "array"; itemType: GgufBigIntType; value: bigint[] }
  | { type: "array"; itemType: "bool"; value: boolean[] }
  | { type: "array"; itemType: "str"; value: string[] };

export type GgufValue = GgufScalar | GgufArray;

/** Key → value, in file order (string keys keep insertion order). */
export type GgufMetadata = Record<string, GgufValue>;

/** Type codes of gguf_type in ggml's gguf.h. */
export const GGUF_TYPE_CODE: Record<GgufScalarType | "array", number> = {
  u8: 0, i8: 1, u16: 2, i16: 3, u32: 4, i32: 5, f32: 6, bool: 7, str: 8, array: 9, u64: 10, i64: 11, f64: 12,
};

export const u32 = (value: number): GgufScalar => ({ type: "u32", value });
export const i32 = (value: number): GgufScalar => ({ type: "i32", value });
export const f32 = (value: number): GgufScalar => ({ type: "f32", value });
export const bool = (value: boolean): GgufScalar => ({ type: "bool", value });
export const str = (value: string): GgufScalar => ({ type: "str", value });
export const strArray = (value: string[]): GgufArray => ({ type: "array", itemType: "str", value });
export const i32Array = (value: number[]): GgufArray => ({ type: "array", itemType: "i32", value });

/** Reads a metadata value that must be a number (any integer or float type). */
export function numberValue(metadata: GgufMetadata, key: string): number {
  const v = metadata[key];
  if (v === undefined) throw new Error(`GGUF metadata: missing ${key}`);
  if (v.type === "u64" || v.type === "i64") return Number(v.value);
  if (typeof v.value !== "number") throw new Error(`GGUF metadata: ${key} is ${v.type}, expected a number`);
  return v.value;
}

export function stringValue(metadata: GgufMetadata, key: string): string {
  const v = metadata[key];
  if (v?.type !== "str") throw new Error(`GGUF metadata: ${key} is ${v?.type ?? "missing"}, expected a string`);
  return v.value;
}

export function stringArrayValue(metadata: GgufMetadata, key: string): string[] {
  const v = metadata[key];
  if (v?.type !== "array" || v.itemType !== "str") throw new Error(`GGUF metadata: ${key} is not a string array`);
  return v.value;
}

export function numberArrayValue(metadata: GgufMetadata, key: string): number[] {
  const v = metadata[key];
  if (v?.type !== "array" || typeof v.value[0] === "string" || typeof v.value[0] === "boolean") {
    throw new Error(`GGUF metadata: ${key} is not a number array`);
  }
  return v.value.map(Number);
}
