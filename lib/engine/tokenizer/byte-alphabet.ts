// GPT-2's byte→unicode table: every byte gets a printable character, so byte-level BPE tokens are
// ordinary strings (llama.cpp's "gpt2" tokenizer model stores its vocabulary this way). Printable
// Latin-1 bytes map to themselves; the other 68 map to U+0100 onwards in byte order.

function buildByteToChar(): string[] {
  const printable = (b: number) => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  const table: string[] = [];
  let next = 0x100;
  for (let b = 0; b < 256; b++) table.push(String.fromCodePoint(printable(b) ? b : next++));
  return table;
}

/** BYTE_TO_CHAR[b] is the one-character string that stands for byte b. */
export const BYTE_TO_CHAR: readonly string[] = buildByteToChar();

const CHAR_TO_BYTE: ReadonlyMap<string, number> = new Map(BYTE_TO_CHAR.map((c, b) => [c, b]));

/** The bytes a byte-alphabet string spells; undefined if a character is outside the alphabet. */
export function alphabetToBytes(s: string): Uint8Array | undefined {
  const out: number[] = [];
  for (const c of s) {
    const b = CHAR_TO_BYTE.get(c);
    if (b === undefined) return undefined;
    out.push(b);
  }
  return Uint8Array.from(out);
}
