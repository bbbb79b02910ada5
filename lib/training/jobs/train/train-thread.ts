// The worker-thread entry of a training job: runs runTraining on the task in workerData and
// reports progress to the runner as messages. Training is CPU-bound for seconds to hours; on its
// own thread it never blocks the web server's event loop, and the runner can stop it at once.
import { parentPort, workerData } from "node:worker_threads";
import { describeTrainingError } from "./describe-error";
import { runTraining, type TrainingTask } from "./run-training";
import type { ThreadMessage } from "./thread-messages";

const post = (message: ThreadMessage) => parentPort!.postMessage(message);

try {
  const metrics = runTraining(workerData as TrainingTask, {
    started: (numSequences) => post({ type: "started", numSequences }),
    gradientStep: (metrics) => post({ type: "step", metrics }),
  });
  post({ type: "done", metrics });
} catch (error) {
  post({ type: "error", message: describeTrainingError(error) });
}
