import { getDb } from "@/lib/db/client";
import { conflict } from "@/lib/contract/errors";

/** 409 while a job of the model is queued or running (it reads the model's newest weights). */
export async function refuseWhileTraining(modelId: string, action: string): Promise<void> {
  const active = await getDb().trainingJob.findFirst({
    where: { modelId, status: { in: ["queued", "running"] } },
    orderBy: { seq: "asc" },
    select: { id: true, status: true },
  });
  if (active) {
    throw conflict(`Cannot ${action} while training job ${active.id} is ${active.status}; cancel it or wait for it to finish.`);
  }
}
