// A job's task (loadJobSource) as token ids: its start file's shape and vocabulary, then
// encodeJobInputs. Runs on the inputs thread (inputs-thread.ts): a base Anneal did not write is
// tokenized by llama.cpp, loaded vocabulary-only there for the call.
import { trainableLayout } from "@/lib/engine/gguf/llama-gguf";
import { openGguf } from "@/lib/engine/gguf/read-gguf";
import { loadTrainingVocabulary } from "@/lib/engine/serving/llama-cpp-vocabulary";
import type { JobSourceTask } from "@/lib/training/jobs/load-job-task";
import { encodeJobInputs } from "./encode-job-inputs";
import type { JobInputs } from "@/lib/training/jobs/job-inputs-schema";

export async function taskInputs(task: JobSourceTask): Promise<JobInputs> {
  const file = openGguf(task.startGguf);
  let model;
  try {
    model = trainableLayout(file).config;
  } finally {
    file.close();
  }
  const { vocabulary, close } = await loadTrainingVocabulary(task.startGguf);
  try {
    return encodeJobInputs(task, vocabulary, model);
  } finally {
    await close();
  }
}
