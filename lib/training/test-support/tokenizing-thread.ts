// Test fixture: a stand-in for a training thread that tokenizes through the vocabulary thread
// without end, until it is terminated (as the runner terminates a cancelled job's thread).
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import { remoteVocabulary } from "@/lib/training/jobs/vocabulary/remote-vocabulary";

const { port, path } = workerData as { port: MessagePort; path: string };
const { vocabulary } = remoteVocabulary(port, path);
parentPort!.postMessage(vocabulary.encode("hello", false));
for (;;) vocabulary.encode("<|im_start|>user\nhello world<|im_end|>\n", true);
