import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { AdapterTooLargeError, MalformedAdapterError } from "./adapter-errors";
import { readZip, writeZip } from "./zip";

// A deflated archive as `zip` and Python's zipfile write one (method 8), built field by field: the
// reader must take it, and refuse what it cannot read safely.
function deflatedZip(name: string, data: Uint8Array, tweak: { claimedSize?: number; flags?: number; crc?: number } = {}): Uint8Array {
  const packed = zlib.deflateRawSync(data);
  const nameBytes = Buffer.from(name);
  const crc = tweak.crc ?? zlib.crc32(data);
  const size = tweak.claimedSize ?? data.length;
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(tweak.flags ?? 0, 6);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(packed.length, 18);
  local.writeUInt32LE(size, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(tweak.flags ?? 0, 8);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(packed.length, 20);
  central.writeUInt32LE(size, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  const localSize = local.length + nameBytes.length + packed.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(localSize, 16);
  return Buffer.concat([local, nameBytes, packed, central, nameBytes, end]);
}

const CAP = { maxUnpackedBytes: 1 << 20 };
const text = (s: string) => new Uint8Array(Buffer.from(s));

describe("zip", () => {
  it("reads back what it writes (stored, CRC-32 checked), folders and all", () => {
    const entries = [{ name: "a/adapter_config.json", data: text('{"r": 8}') }, { name: "a/empty", data: new Uint8Array(0) }];
    const read = readZip(writeZip(entries), CAP);
    expect([...read.keys()]).toEqual(["a/adapter_config.json", "a/empty"]);
    expect(Buffer.from(read.get("a/adapter_config.json")!).toString()).toBe('{"r": 8}');
    expect(read.get("a/empty")!.length).toBe(0);
  });

  it("writes the same bytes for the same contents (no clock in the archive)", () => {
    const entries = [{ name: "x", data: text("y") }];
    expect(Buffer.from(writeZip(entries)).equals(Buffer.from(writeZip(entries)))).toBe(true);
  });

  it("reads deflated entries", () => {
    const data = text("adapter ".repeat(1000));
    expect(Buffer.from(readZip(deflatedZip("adapter_config.json", data), CAP).get("adapter_config.json")!).equals(Buffer.from(data))).toBe(true);
  });

  it("refuses a zip bomb: an entry that inflates past its claimed size", () => {
    const bomb = deflatedZip("adapter_model.safetensors", new Uint8Array(10 << 20), { claimedSize: 100 });
    expect(() => readZip(bomb, { maxUnpackedBytes: 64 << 20 })).toThrow(MalformedAdapterError);
  });

  it("refuses entries whose claimed sizes add up past the cap, before inflating any", () => {
    expect(() => readZip(deflatedZip("big", new Uint8Array(2 << 20)), CAP)).toThrow(AdapterTooLargeError);
  });

  it("refuses encrypted entries, other methods' archives, bad CRCs, ZIP64 and what is not a zip", () => {
    const data = text("secret");
    expect(() => readZip(deflatedZip("x", data, { flags: 1 }), CAP)).toThrow(/encrypted/);
    expect(() => readZip(deflatedZip("x", data, { crc: 1 }), CAP)).toThrow(/CRC-32/);
    const zip64 = Buffer.from(writeZip([{ name: "x", data }]));
    zip64.writeUInt16LE(0xffff, zip64.length - 22 + 8);
    zip64.writeUInt16LE(0xffff, zip64.length - 22 + 10);
    expect(() => readZip(zip64, CAP)).toThrow(/ZIP64/);
    expect(() => readZip(text("GGUF and more bytes than an end record"), CAP)).toThrow(/not a zip archive/);
  });
});
