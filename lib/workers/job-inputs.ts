// GET /v1/workers/leases/{token}/inputs' answer without `start` and `resume` (the routes add them):
// a job as token ids for a remote worker, tokenized with the start file's vocabulary exactly as the
// embedded trainer tokenizes it (task-inputs.ts). That runs on a thread of its own, started for the
// call, because for a base Anneal did not write it loads llama.cpp (binding and vocabulary: ~100 MB
// for a Qwen vocabulary of 151,936 tokens, ~0.5 s of it synchronous) and tokenizes every example
// (~0.75 s per 1,000 SFT examples), none of which may stall the web server's event loop. Measured on
// 2 busy vCPUs (load 7): 1,000 SFT examples on a Qwen2-layout base answer in 9.5–10.5 s, the event
// loop never held more than ~0.1 s. A lease asks once per attempt.
import { loadJobSource, type JobSourceTask } from "@/lib/training/jobs/load-job-task";
import type { JobInputs } from "@/lib/training/jobs/job-inputs-schema";
import { onOneShotThread } from "./one-shot-thread";

export async function jobInputs(jobId: string): Promise<JobInputs> {
  const { task } = await loadJobSource(jobId);
  return inputsOnThread(task);
}

export function inputsOnThread(task: JobSourceTask): Promise<JobInputs> {
  return onOneShotThread<JobInputs>("inputs-thread.mjs", task, "inputs");
}
