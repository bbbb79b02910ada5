import { getDb } from "@/lib/db/client";
import { judgementSourceSchema, type JudgementSource } from "./schemas";

/** The lineage of a file built from human judgement; null for any other file. */
export async function fileSource(fileId: string): Promise<JudgementSource | null> {
  const row = await getDb().file.findUnique({ where: { id: fileId }, select: { source: true } });
  const parsed = judgementSourceSchema.safeParse(row?.source);
  return parsed.success ? parsed.data : null;
}
