import { z } from "zod";

// How a base model is named, in the models file and by the API (no server module here: the console's
// schemas import it).

export const baseModelName = z.string().min(1).max(256).regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/, "letters, digits, . _ - and /");

/** One Hugging Face name or a list of them, as a models-file entry or the API takes it; repeats dropped. */
export const hfNamesSchema = z.union([baseModelName, z.array(baseModelName).max(16)]).transform((names) => [...new Set([names].flat())]);
