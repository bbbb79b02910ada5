import { describe, expect, it } from "vitest";
import { encodeBf16, encodeF16 } from "../gguf/half-float";
import { MalformedAdapterError } from "./adapter-errors";
import { readSafetensors, writeSafetensors } from "./safetensors";

/** A safetensors file of one tensor of this dtype and raw bytes, as Hugging Face writes it. */
function fileOf(name: string, dtype: string, shape: number[], data: Uint8Array): Uint8Array {
  const header = Buffer.from(JSON.stringify({ [name]: { dtype, shape, data_offsets: [0, data.length] } }));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(header.length));
  return Buffer.concat([length, header, data]);
}
const bytesOf = (a: Uint16Array | Float32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

describe("safetensors", () => {
  it("writes F32 with a header aligned to 8 and reads it back bit for bit", () => {
    const data = Float32Array.from([1.5, -0, NaN, 3e-40]);
    const file = writeSafetensors({ w: { shape: [2, 2], data } }, { format: "pt" });
    const headerLength = Number(Buffer.from(file).readBigUInt64LE(0));
    expect((8 + headerLength) % 8).toBe(0);
    const back = readSafetensors(file);
    expect(back.metadata).toEqual({ format: "pt" });
    expect(back.tensors.w.dtype).toBe("F32");
    expect(back.tensors.w.shape).toEqual([2, 2]);
    expect(Buffer.from(bytesOf(back.tensors.w.data)).equals(Buffer.from(bytesOf(data)))).toBe(true);
  });

  it("reads F16 and BF16 as ggml decodes them", () => {
    const values = Float32Array.from([0.1, -2, 65504, 1e-5]);
    const f16 = readSafetensors(fileOf("h", "F16", [4], bytesOf(encodeF16(values)))).tensors.h.data;
    const bf16 = readSafetensors(fileOf("b", "BF16", [4], bytesOf(encodeBf16(values)))).tensors.b.data;
    values.forEach((v, i) => {
      expect(f16[i]).toBeCloseTo(v, 3);
      expect(Math.abs(bf16[i] - v)).toBeLessThanOrEqual(Math.abs(v) / 128);
    });
  });

  it("refuses other dtypes, offsets outside the file and overlapping tensors", () => {
    expect(() => readSafetensors(fileOf("x", "I64", [1], new Uint8Array(8)))).toThrow(/I64; Anneal reads F32, F16, BF16/);
    expect(() => readSafetensors(fileOf("x", "F32", [4], new Uint8Array(8)))).toThrow(MalformedAdapterError);
    const header = Buffer.from(JSON.stringify({ a: { dtype: "F32", shape: [2], data_offsets: [0, 8] }, b: { dtype: "F32", shape: [2], data_offsets: [4, 12] } }));
    const length = Buffer.alloc(8);
    length.writeBigUInt64LE(BigInt(header.length));
    expect(() => readSafetensors(Buffer.concat([length, header, new Uint8Array(12)]))).toThrow(/overlaps/);
    expect(() => readSafetensors(new Uint8Array(4))).toThrow(MalformedAdapterError);
  });
});
