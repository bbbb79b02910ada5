import { CopyButton } from "@/components/ui/copy-button";

// How to create (and log to) a model from code, for the empty states.

export function createModelSnippet(origin: string, team: string, project: string, baseModel = "anneal/tiny-chat-3"): string {
  return `curl ${origin}/v1/preview/models \\
  -H "Authorization: Bearer $ANNEAL_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"entity": "${team}", "project": "${project}", "name": "my-agent", "base_model": "${baseModel}"}'`;
}

export function logGroupsSnippet(origin: string, modelId: string): string {
  return `curl ${origin}/v1/preview/models/${modelId}/log \\
  -H "Authorization: Bearer $ANNEAL_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"split": "val", "trajectory_groups": [{"trajectories": [{
        "messages_and_choices": [
          {"role": "user", "content": "2+2?"},
          {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "4"}}],
        "reward": 1.0}]}]}'`;
}

export function Snippet({ code, label }: { code: string; label: string }) {
  return (
    <div className="relative mt-4 w-full max-w-2xl min-w-0 text-left">
      {/* Wrapped, never wider than the page: a long origin or JSON line breaks (anywhere, if it
          must) instead of widening every box around it; Copy copies the command as written. */}
      <pre aria-label={label} className="rounded-lg bg-zinc-950 p-4 pr-24 font-mono text-[12px] leading-relaxed whitespace-pre-wrap text-zinc-100 [overflow-wrap:anywhere]">
        <code>{code}</code>
      </pre>
      <div className="absolute top-2 right-2">
        <CopyButton value={code} />
      </div>
    </div>
  );
}
