"use client";

import { useMe } from "@/components/identity/queries";
import { CreateKeyDialog } from "@/components/keys/create-key-dialog";
import { NewWorkerKeyReveal } from "@/components/worker-keys/new-worker-key-reveal";
import { useCreateWorkerKey } from "@/components/worker-keys/queries";

/** "Create worker key": name and scope (any team's jobs, or one of the admin's teams'), then the
 *  secret and the commands that start a worker, shown this once. */
export function CreateWorkerKeyDialog({ origin }: { origin: string }) {
  const create = useCreateWorkerKey();
  const { data: me } = useMe();
  return (
    <CreateKeyDialog
      noun="worker key"
      create={create}
      namePlaceholder="e.g. gpu-pool"
      scope={{
        unscoped: "All teams",
        teams: me?.teams.map((team) => team.name) ?? [],
        hint: "A team's key takes only that team's jobs. Your teams are listed; the API takes any team's name.",
      }}
      reveal={(workerKey) => <NewWorkerKeyReveal workerKey={workerKey} origin={origin} />}
    />
  );
}
