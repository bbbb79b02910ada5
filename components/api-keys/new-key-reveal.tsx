"use client";

import type { CreatedApiKey } from "@/components/identity/queries";
import { CommandExample, SecretReveal } from "@/components/keys/secret-reveal";

/** The secret of a just-created API key, and a call that uses it. */
export function NewKeyReveal({ apiKey, origin }: { apiKey: CreatedApiKey; origin: string }) {
  return (
    <SecretReveal name={apiKey.name} scope={apiKey.team ? `only ${apiKey.team}` : undefined} secret={apiKey.key} testId="new-api-key">
      <CommandExample label="Try it" command={`curl ${origin}/v1/me \\\n  -H "Authorization: Bearer ${apiKey.key}"`} />
    </SecretReveal>
  );
}
