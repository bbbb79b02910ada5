import fs from "node:fs";
import { toStorableJson } from "@/lib/call-log/call-recorder";
import { getDb } from "@/lib/db/client";
import { recordCheckpoint } from "@/lib/training/models/record-checkpoint";
import type { JobReport } from "./job-report";
import type { LoadedJob } from "./load-job-task";
import { insertEvent, lockOwnedJob } from "./queue";

/** What a job's end records: its checkpoint file (written) and format, and the optimizer state it
 *  started from (a remote worker's job: the previous checkpoint's, which no longer matches the newest). */
export type CompletedJob = Pick<LoadedJob, "jobId" | "modelId" | "checkpointFile" | "checkpointFormat"> & { task: { startOptimizer: string | null } };

/** A job's successful end, in one transaction while this worker owns it: the model's step
 *  advances by one, the checkpoint row (its file already written) is created, the job succeeds,
 *  and training_ended comes last — a client that sees it finds the checkpoint. The report's
 *  warnings and sample replies (SFT's guard rails) are stored on the job. */
export async function completeJob(job: CompletedJob, workerId: string, metrics: Record<string, number>, stepsDone: number, report: JobReport | null = null): Promise<boolean> {
  const committed = await getDb().$transaction(async (tx) => {
    if (!(await lockOwnedJob(tx, job.jobId, workerId))) return false;
    const step = await recordCheckpoint(tx, { modelId: job.modelId, metrics, file: job.checkpointFile, format: job.checkpointFormat });
    await tx.trainingJob.update({
      where: { id: job.jobId },
      data: {
        status: "succeeded", checkpointStep: step, stepsDone, finishedAt: new Date(), leaseOwner: null, leaseExpiresAt: null,
        // Samples quote training data and model output, either of which may hold a NUL jsonb cannot store.
        ...(report && { warnings: toStorableJson(report.warnings), sampleReplies: toStorableJson(report.samples) }),
      },
    });
    await insertEvent(tx, job.jobId, "training_ended", { step });
    return true;
  });
  // Only the newest checkpoint keeps its optimizer state (the next job continues from it alone): the
  // state this job started from goes. A job after the newest checkpoint's deletion starts a fresh AdamW.
  if (committed && job.task.startOptimizer) fs.rmSync(job.task.startOptimizer, { force: true });
  return committed;
}
