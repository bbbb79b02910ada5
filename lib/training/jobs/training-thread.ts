// The runner's training threads: one per slot, kept between jobs, and one job's time on one: the
// task posted, what the thread reports handed on, until it reports its end or exits.
import { Worker } from "node:worker_threads";
import type { ThreadMessage, ThreadRequest } from "./train/thread-messages";
import type { TrainingTask } from "./train/training-task";
import type { VocabularyThread } from "./vocabulary/vocabulary-host";

const TRAIN_THREAD = new URL("./train/train-thread.mjs", import.meta.url);

export interface ThreadSlot {
  thread: Worker | null;
  /** The job the slot is training. */
  jobId: string | null;
  /** Shared with the slot's thread (TrainingTask.stopRequest): 1 asks it to save and stop. */
  stopRequest: Int32Array;
}

export const newSlot = (): ThreadSlot => ({ thread: null, jobId: null, stopRequest: new Int32Array(new SharedArrayBuffer(4)) });

/** The slot's thread, started if it has none; the slot forgets it when it exits (a crash, or
 *  stopped to cancel). */
export function slotThread(slot: ThreadSlot): Worker {
  if (slot.thread) return slot.thread;
  const thread = new Worker(TRAIN_THREAD);
  thread.once("exit", () => {
    if (slot.thread === thread) slot.thread = null;
  });
  slot.thread = thread;
  return thread;
}

export interface ThreadListener {
  onMessage: (message: ThreadMessage) => void;
  onCrash: (error: Error) => void;
}

/** Posts the task and resolves once the thread has reported its end (done or error) or exited;
 *  the listener hears everything until then. A thread's request for a vocabulary is passed on to
 *  the runner's vocabulary thread. */
export async function trainOnThread(thread: Worker, task: TrainingTask, listener: ThreadListener, vocabularies: VocabularyThread): Promise<void> {
  let ended!: () => void;
  const over = new Promise<void>((resolve) => (ended = resolve));
  const onMessage = (message: ThreadMessage | ThreadRequest) => {
    if (message.type === "vocabulary") return vocabularies.connect(message.port);
    listener.onMessage(message);
    if (message.type === "done" || message.type === "error" || message.type === "stopped") ended();
  };
  thread.on("message", onMessage);
  thread.on("error", listener.onCrash);
  thread.once("exit", ended);
  thread.postMessage(task);
  await over;
  thread.off("message", onMessage).off("error", listener.onCrash).off("exit", ended);
}
