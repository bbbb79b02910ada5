// A training thread: runs each task the runner posts (one at a time) and reports progress as
// messages. Training is CPU-bound for seconds to hours; on its own thread it never blocks the web
// server's event loop, and the runner can stop it at once (by terminating the thread).
import { MessageChannel, parentPort, type MessagePort } from "node:worker_threads";
import { loadTrainingVocabulary } from "@/lib/engine/serving/llama-cpp-vocabulary";
import { remoteVocabulary } from "../vocabulary/remote-vocabulary";
import { describeTrainingError } from "./describe-error";
import { runTraining, TrainingStopped } from "./run-training";
import type { TrainingTask } from "./training-task";
import type { ThreadMessage, ThreadRequest } from "./thread-messages";

const post = (message: ThreadMessage) => parentPort!.postMessage(message);

/** A port to the runner's vocabulary thread (this thread never loads llama.cpp itself: it may be
 *  terminated at any moment, and terminating it inside node-llama-cpp aborts the process). */
function vocabularyPort(): MessagePort {
  const { port1, port2 } = new MessageChannel();
  parentPort!.postMessage({ type: "vocabulary", port: port2 } satisfies ThreadRequest, [port2]);
  return port1;
}

parentPort!.on("message", async (task: TrainingTask) => {
  try {
    // The start file's vocabulary, tokenizing as the engine serves it: Anneal's own BPE for
    // Anneal's models, llama.cpp's (through the vocabulary thread) for any other. A job given as
    // token ids tokenizes nothing.
    const loaded = "inputs" in task ? null : await loadTrainingVocabulary(task.startGguf, async (path) => remoteVocabulary(vocabularyPort(), path));
    try {
      const metrics = runTraining(task, {
        started: (numSequences, fromStep) => post({ type: "started", numSequences, fromStep }),
        gradientStep: (metrics) => post({ type: "step", metrics }),
        saved: (state) => post({ type: "saved", state }),
        report: (report) => post({ type: "report", report }),
      }, loaded?.vocabulary);
      post({ type: "done", metrics });
    } finally {
      await loaded?.close();
    }
  } catch (error) {
    post(error instanceof TrainingStopped ? { type: "stopped" } : { type: "error", message: describeTrainingError(error) });
  }
});
