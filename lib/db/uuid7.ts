import { randomBytes } from "node:crypto";

/** A UUID v7 (RFC 9562): 48-bit millisecond time, then random bits; for rows written by raw SQL
 *  (Prisma's @default(uuid(7)) covers the rest). */
export function uuid7(now = Date.now()): string {
  const b = randomBytes(16);
  b.writeUIntBE(now, 0, 6);
  b[6] = (b[6] & 0x0f) | 0x70;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
