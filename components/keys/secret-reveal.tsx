"use client";

import type { ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { CopyButton } from "@/components/ui/copy-button";

/** A just-created key's secret, shown this once: the warning, the secret with its copy button, and
 *  how to use it (`children`, e.g. `CommandExample`s). */
export function SecretReveal({ name, scope, secret, testId, children }: { name: string; scope?: string; secret: string; testId: string; children: ReactNode }) {
  return (
    <div className="space-y-4">
      <Alert tone="warning" title="Copy the key now">
        This is the only time Anneal shows it. It stores only a hash, so a lost key cannot be recovered: create a new one.
      </Alert>
      <div>
        <label htmlFor={testId} className="mb-1.5 block text-sm font-medium text-zinc-800">
          {name}
          {scope && <span className="font-normal text-zinc-500"> · {scope}</span>}
        </label>
        <div className="flex gap-2">
          <input
            id={testId}
            readOnly
            value={secret}
            onFocus={(event) => event.currentTarget.select()}
            data-testid={testId}
            className="block w-full rounded-md border border-zinc-300 bg-zinc-50 px-3 py-2 font-mono text-[13px] text-zinc-900 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
          />
          <CopyButton value={secret} label="Copy key" />
        </div>
      </div>
      {children}
    </div>
  );
}

/** A command to paste into a terminal, under a short label. */
export function CommandExample({ label, command, testId }: { label: string; command: string; testId?: string }) {
  return (
    <div>
      <p className="mb-1.5 text-xs font-medium text-zinc-500">{label}</p>
      <pre data-testid={testId} className="rounded-lg whitespace-pre-wrap break-all bg-zinc-950 p-3 font-mono text-[12px] leading-relaxed text-zinc-100">
        {command}
      </pre>
    </div>
  );
}
