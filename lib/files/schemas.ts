import { z } from "zod";
import { nameSchema } from "@/lib/auth/names";
import { pageQuerySchema, pageSchema } from "@/lib/contract/pagination";

// Uploaded files (datasets for SFT jobs), shaped like OpenAI's Files API so its SDKs work
// unchanged (docs/contract.md "Training jobs": Files).

export const fileParams = z.object({ file_id: z.string().uuid() });

export const createFileBody = z.object({
  file: z
    .file()
    .refine((f) => f.name.length > 0 && f.name.length <= 255, "the file part needs a filename of 1–255 characters")
    .describe("The file's bytes, sent as a multipart file part with a filename."),
  purpose: z.string().min(1).max(64).describe('What the file is for, as OpenAI names it: "fine-tune", "batch", "assistants", ….'),
  team: nameSchema.optional().describe("The team that owns the file; default: the caller's personal team (or the key's team)."),
});
export type CreateFileBody = z.infer<typeof createFileBody>;

export const fileSchema = z.object({
  id: z.string().uuid(),
  object: z.literal("file"),
  bytes: z.number().int(),
  filename: z.string(),
  purpose: z.string(),
  /** Unix seconds, as OpenAI's file object (and chat completions' `created`) has it. */
  created_at: z.number().int().describe("Unix time in seconds, as in OpenAI's file object."),
  status: z.literal("processed").describe("Always processed: an upload is usable once it is answered (OpenAI's SDKs wait for this)."),
  team: z.string().describe("The team that owns the file."),
});
export type FileDto = z.infer<typeof fileSchema>;
export const filePage = pageSchema(fileSchema);

export const listFilesQuery = pageQuerySchema.extend({
  order: z.enum(["asc", "desc"]).default("desc").describe("By upload time; newest first by default, as OpenAI lists files."),
  purpose: z.string().min(1).max(64).optional().describe("Only files with this purpose."),
  team: nameSchema.optional().describe("Only this team's files (default: every team the caller may use)."),
});
export type ListFilesQuery = z.infer<typeof listFilesQuery>;

export const deletedFileSchema = z.object({
  id: z.string().uuid(),
  object: z.literal("file"),
  deleted: z.literal(true),
});
