import { ZodError } from "zod";
import { AppError, ValidationError } from "@/lib/contract/errors";

/** The training_failed message for an error thrown while training: the client's data problem as
 *  the HTTP layer would have worded it, or the engine's own message. */
export function describeTrainingError(error: unknown): string {
  if (error instanceof ValidationError) {
    return error.issues.map((i) => `${i.loc.filter((l) => l !== "body").join(".")}: ${i.msg}`).join("; ");
  }
  if (error instanceof AppError) return error.message;
  if (error instanceof ZodError) {
    return error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
  }
  return error instanceof Error ? error.message : String(error);
}
