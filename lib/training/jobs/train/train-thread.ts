// A training thread: runs each task the runner posts (one at a time) and reports progress as
// messages. Training is CPU-bound for seconds to hours; on its own thread it never blocks the web
// server's event loop, and the runner can stop it at once (by terminating the thread).
import { parentPort } from "node:worker_threads";
import { describeTrainingError } from "./describe-error";
import { runTraining, type TrainingTask } from "./run-training";
import type { ThreadMessage } from "./thread-messages";

const post = (message: ThreadMessage) => parentPort!.postMessage(message);

parentPort!.on("message", (task: TrainingTask) => {
  try {
    const metrics = runTraining(task, {
      started: (numSequences, fromStep) => post({ type: "started", numSequences, fromStep }),
      gradientStep: (metrics) => post({ type: "step", metrics }),
      saved: (state) => post({ type: "saved", state }),
      report: (report) => post({ type: "report", report }),
    });
    post({ type: "done", metrics });
  } catch (error) {
    post({ type: "error", message: describeTrainingError(error) });
  }
});
