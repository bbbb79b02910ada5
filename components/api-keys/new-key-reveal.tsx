"use client";

import { Alert } from "@/components/ui/alert";
import { CopyButton } from "@/components/ui/copy-button";
import type { CreatedApiKey } from "@/components/identity/queries";

/** The secret of a just-created key, its copy button, and how to use it. */
export function NewKeyReveal({ apiKey, origin }: { apiKey: CreatedApiKey; origin: string }) {
  const example = `curl ${origin}/v1/me \\\n  -H "Authorization: Bearer ${apiKey.key}"`;
  return (
    <div className="space-y-4">
      <Alert tone="warning" title="Copy the key now">
        This is the only time Anneal shows it. It stores only a hash, so a lost key cannot be recovered: create a new one.
      </Alert>
      <div>
        <label htmlFor="new-api-key" className="mb-1.5 block text-sm font-medium text-zinc-800">
          {apiKey.name}
          {apiKey.team && <span className="font-normal text-zinc-500"> · only {apiKey.team}</span>}
        </label>
        <div className="flex gap-2">
          <input
            id="new-api-key"
            readOnly
            value={apiKey.key}
            onFocus={(event) => event.currentTarget.select()}
            data-testid="new-api-key"
            className="block w-full rounded-md border border-zinc-300 bg-zinc-50 px-3 py-2 font-mono text-[13px] text-zinc-900 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
          />
          <CopyButton value={apiKey.key} label="Copy key" />
        </div>
      </div>
      <div>
        <p className="mb-1.5 text-xs font-medium text-zinc-500">Try it</p>
        <pre className="rounded-lg whitespace-pre-wrap break-all bg-zinc-950 p-3 font-mono text-[12px] leading-relaxed text-zinc-100">{example}</pre>
      </div>
    </div>
  );
}
