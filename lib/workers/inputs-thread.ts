// The one-shot thread jobInputs tokenizes a job on (job-inputs.ts).
import type { JobSourceTask } from "@/lib/training/jobs/load-job-task";
import { answerOnce } from "./one-shot-answer";
import { taskInputs } from "./task-inputs";

await answerOnce((task: JobSourceTask) => taskInputs(task));
