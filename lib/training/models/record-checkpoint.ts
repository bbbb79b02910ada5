import type { Prisma } from "@/lib/db/generated/client";
import { conflict } from "@/lib/contract/errors";

// A new checkpoint of a model, its file already written: the model's current_step advances to its
// step and the row is created, in the caller's transaction. A job's checkpoint takes the next step;
// an imported one may name a later step (never one at or below current_step, which never goes back).

export interface NewCheckpoint {
  modelId: string;
  /** Default: current_step + 1. */
  step?: number;
  metrics: Record<string, number>;
  /** Relative to dataPaths().checkpoints. */
  file: string;
  format: "full" | "lora";
}

/** The new checkpoint's step; 409 when `step` is not above the model's current_step. */
export async function recordCheckpoint(tx: Prisma.TransactionClient, checkpoint: NewCheckpoint): Promise<number> {
  const { modelId, metrics, file, format } = checkpoint;
  let step: number;
  if (checkpoint.step === undefined) {
    ({ currentStep: step } = await tx.model.update({ where: { id: modelId }, data: { currentStep: { increment: 1 } }, select: { currentStep: true } }));
  } else {
    // Conditional, so two imports racing for steps cannot move current_step back.
    const { count } = await tx.model.updateMany({ where: { id: modelId, currentStep: { lt: checkpoint.step } }, data: { currentStep: checkpoint.step } });
    if (count === 0) throw conflict(`Step ${checkpoint.step} is not after the model's current step; name a later step or leave step out.`);
    step = checkpoint.step;
  }
  await tx.checkpoint.create({ data: { modelId, step, metrics, file, format } });
  return step;
}
