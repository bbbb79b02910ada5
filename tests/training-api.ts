import type { RunnerSettings } from "@/lib/training/jobs/runner";
import { eventPage, jobSchema, type EventDto, type JobDto } from "@/lib/training/jobs/schemas";
import { api, json } from "./http";

// A training job as a client follows it over HTTP: its status, until it ends, and its event feed;
// and the embedded runner the job tests train with.

/** A runner that notices a dead attempt quickly: short leases, fast polls, one job at a time. */
export const TEST_RUNNER_SETTINGS: RunnerSettings = { kind: "embedded", leaseMs: 5_000, heartbeatMs: 100, pollMs: 50, maxAttempts: 2, concurrency: 1, stallMs: 60_000 };

export async function getJob(key: string, id: string): Promise<JobDto> {
  return jobSchema.parse((await json(api("GET", `/v1/preview/training-jobs/${id}`, { bearer: key }))).body);
}

export async function waitFinished(key: string, id: string, timeoutMs = 30_000): Promise<JobDto> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await getJob(key, id);
    if (["succeeded", "failed", "cancelled"].includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function allEvents(key: string, id: string): Promise<EventDto[]> {
  const events: EventDto[] = [];
  for (let after = ""; ;) {
    const res = await json(api("GET", `/v1/preview/training-jobs/${id}/events?limit=100${after && `&after=${after}`}`, { bearer: key }));
    const page = eventPage.parse(res.body);
    events.push(...page.data);
    if (!page.has_more) return events;
    after = page.last_id;
  }
}
