"use client";

import type { Job } from "@/components/jobs/queries";
import { Alert } from "@/components/ui/alert";
import { Panel } from "@/components/ui/panel";

// A finished job's guard rails: its warnings (the checkpoint looks worse than the weights it
// started from; the job still succeeded) and greedy replies to held-out prompts before and after.

export function JobWarnings({ warnings }: { warnings: Job["warnings"] }) {
  if (warnings.length === 0) return null;
  return (
    <Alert tone="warning" title="Succeeded, but check this checkpoint before serving it">
      <ul data-testid="job-warnings" className="list-disc space-y-0.5 pl-4">
        {warnings.map((w) => (
          <li key={w.code} data-code={w.code}>
            {w.message}
          </li>
        ))}
      </ul>
    </Alert>
  );
}

const Reply = ({ text, ended }: { text: string; ended: boolean }) => (
  <span className="whitespace-pre-wrap break-words">
    {text || <span className="text-zinc-400">(empty)</span>}
    {!ended && <span className="ml-1 rounded bg-amber-100 px-1 text-[10px] text-amber-800">did not end</span>}
  </span>
);

export function SampleReplies({ samples }: { samples: Job["sample_replies"] }) {
  if (samples.length === 0) return null;
  return (
    <Panel
      title="Replies before and after"
      description={samples[0].held_out ? "Greedy replies to held-out validation prompts, by the starting weights and by the checkpoint." : "Greedy replies to training prompts (the job had no validation examples), by the starting weights and by the checkpoint."}
    >
      <table data-testid="sample-replies" className="w-full table-fixed text-left text-xs">
        <thead className="border-b border-zinc-100 text-zinc-500">
          <tr>
            <th className="px-4 py-2 font-medium">Prompt</th>
            <th className="px-2 py-2 font-medium">Expected</th>
            <th className="px-2 py-2 font-medium">Before</th>
            <th className="px-2 py-2 font-medium">After</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 align-top font-mono text-zinc-800">
          {samples.map((s, i) => (
            <tr key={i}>
              <td className="px-4 py-2 font-sans whitespace-pre-wrap break-words">{s.prompt}</td>
              <td className="px-2 py-2 whitespace-pre-wrap break-words text-zinc-500">{s.expected}</td>
              <td className="px-2 py-2">
                <Reply text={s.before} ended={s.before_ended} />
              </td>
              <td className="px-2 py-2">
                <Reply text={s.after} ended={s.after_ended} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}
