import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openGguf } from "./read-gguf";
import type { GgufMetadata } from "./values";
import { writeGguf } from "./write-gguf";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-gguf-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const metadata: GgufMetadata = {
  "general.architecture": { type: "str", value: "llama" },
  "t.u8": { type: "u8", value: 255 },
  "t.i8": { type: "i8", value: -128 },
  "t.u16": { type: "u16", value: 65535 },
  "t.i16": { type: "i16", value: -32768 },
  "t.u32": { type: "u32", value: 4294967295 },
  "t.i32": { type: "i32", value: -2147483648 },
  "t.f32": { type: "f32", value: Math.fround(0.1) },
  "t.f64": { type: "f64", value: 0.1 },
  "t.u64": { type: "u64", value: 2n ** 64n - 1n },
  "t.i64": { type: "i64", value: -(2n ** 63n) },
  "t.bool": { type: "bool", value: true },
  "t.str": { type: "str", value: "héllo 😀 <|im_end|>" },
  "t.strs": { type: "array", itemType: "str", value: ["a", "", "日本"] },
  "t.i32s": { type: "array", itemType: "i32", value: [1, -2, 3] },
  "t.f32s": { type: "array", itemType: "f32", value: [1.5, -0.25] },
  "t.bools": { type: "array", itemType: "bool", value: [true, false] },
  "t.empty": { type: "array", itemType: "u32", value: [] },
};

// Odd sizes force padding between tensors; special float values check bit-exactness.
const tensors = [
  { name: "odd", dims: [3], data: Float32Array.of(1, -0, NaN) },
  { name: "matrix", dims: [5, 3], data: Float32Array.from({ length: 15 }, (_, i) => Math.fround(Math.sin(i) * 1e-3)) },
  { name: "inf", dims: [2], data: Float32Array.of(Infinity, -Infinity) },
];

const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));

describe("GGUF v3", () => {
  const file = path.join(dir, "all.gguf");
  writeGguf(file, metadata, tensors);

  it("reads back every metadata type and tensor bit-exactly", () => {
    const g = openGguf(file);
    expect(g.version).toBe(3);
    expect(g.metadata).toEqual(metadata);
    expect(g.tensors.map((t) => [t.name, t.dims])).toEqual(tensors.map((t) => [t.name, t.dims]));
    for (const t of tensors) expect(bits(g.readTensor(t.name))).toEqual(bits(t.data));
    g.close();
  });

  it("aligns tensor data to 32 bytes and rewrites byte-identically", () => {
    const g = openGguf(file);
    for (const t of g.tensors) expect(t.fileOffset % 32).toBe(0);
    const copy = path.join(dir, "copy.gguf");
    writeGguf(copy, g.metadata, g.tensors.map((t) => ({ name: t.name, dims: t.dims, data: g.readTensor(t.name) })));
    g.close();
    expect(fs.readFileSync(copy).equals(fs.readFileSync(file))).toBe(true);
    expect(fs.statSync(file).size % 32).toBe(0);
  });

  it("rejects mismatched sizes and non-GGUF files", () => {
    expect(() => writeGguf(path.join(dir, "bad.gguf"), {}, [{ name: "x", dims: [2, 2], data: new Float32Array(3) }])).toThrow(/dims/);
    fs.writeFileSync(path.join(dir, "junk.bin"), "not a gguf file at all");
    expect(() => openGguf(path.join(dir, "junk.bin"))).toThrow(/not a GGUF/);
  });
});
