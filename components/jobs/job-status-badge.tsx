import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { JobStatus } from "@/components/jobs/queries";

const TONE: Record<JobStatus, BadgeTone> = { queued: "neutral", running: "blue", succeeded: "green", failed: "red", cancelled: "violet" };

/** A job's status as a coloured pill; live states pulse. */
export function JobStatusBadge({ status }: { status: JobStatus }) {
  return (
    <span data-testid="job-status" data-status={status} className="inline-flex items-center gap-1.5">
      <Badge tone={TONE[status]}>
        {(status === "running" || status === "queued") && <span aria-hidden className={`mr-1.5 size-1.5 rounded-full ${status === "running" ? "animate-pulse bg-sky-500" : "bg-zinc-400"}`} />}
        {status}
      </Badge>
    </span>
  );
}
