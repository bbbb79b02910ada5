"use client";

import { CommandExample, SecretReveal } from "@/components/keys/secret-reveal";
import type { CreatedWorkerKey } from "@/components/worker-keys/queries";

/** The secret of a just-created worker key, and the commands that start a worker with it
 *  (docs/workers.md; the Python worker's --map is docs/operations.md's). */
export function NewWorkerKeyReveal({ workerKey, origin }: { workerKey: CreatedWorkerKey; origin: string }) {
  return (
    <SecretReveal name={workerKey.name} scope={workerKey.team ? `only ${workerKey.team}'s jobs` : "any team's jobs"} secret={workerKey.key} testId="new-worker-key">
      <CommandExample label="Anneal's CPU trainer, from a checkout of Anneal" command={`npm run worker -- --server ${origin} --key ${workerKey.key}`} testId="node-worker-command" />
      <CommandExample
        label="A GPU machine (pip install ./workers/python): map each base's Hugging Face name to its directory"
        command={`anneal-worker serve --server ${origin} --key ${workerKey.key} \\\n  --map <hf_name>=<model directory>`}
        testId="python-worker-command"
      />
    </SecretReveal>
  );
}
