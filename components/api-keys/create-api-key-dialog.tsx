"use client";

import { NewKeyReveal } from "@/components/api-keys/new-key-reveal";
import { useCreateApiKey, useMe } from "@/components/identity/queries";
import { CreateKeyDialog } from "@/components/keys/create-key-dialog";

/** "Create API key": name and team scope (the caller's teams), then the secret, shown this once. */
export function CreateApiKeyDialog({ origin }: { origin: string }) {
  const create = useCreateApiKey();
  const { data: me } = useMe();
  return (
    <CreateKeyDialog
      noun="API key"
      create={create}
      namePlaceholder="e.g. training-runner"
      scope={{ unscoped: "All my teams", teams: me?.teams.map((team) => team.name) ?? [], hint: "A team-scoped key cannot reach your other teams." }}
      reveal={(apiKey) => <NewKeyReveal apiKey={apiKey} origin={origin} />}
    />
  );
}
